import { createReminder, createScheduledMessage, deleteReminder, deleteScheduledMessage, editScheduledMessage, listReminders, listScheduledMessages, reminderParams } from "../../actions/scheduled-messages";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

const messageType = () => p.enum(["direct", "channel", "stream", "private"] as const);
/** A channel's id (alone or in a list) or the direct message's user ids. */
const recipient = () => p.json(t.union<number | number[]>(t.int(), t.list(t.int())));

export default [
  endpoint("GET", "/scheduled_messages", { params: {}, run: ({ app, user }) => listScheduledMessages(app, user) }),
  endpoint("POST", "/scheduled_messages", {
    params: {
      type: messageType(),
      to: recipient(),
      content: p.str(),
      topic: p.str().optional(),
      scheduled_delivery_timestamp: p.int(),
      read_by_sender: p.bool().optional(),
    },
    run: ({ app, realm, user, args }) => createScheduledMessage(app, realm, user, args),
  }),
  endpoint("PATCH", "/scheduled_messages/{scheduled_message_id}", {
    params: {
      scheduled_message_id: p.path.int(),
      type: messageType().optional(),
      to: recipient().optional(),
      content: p.str().optional(),
      topic: p.str().optional(),
      scheduled_delivery_timestamp: p.int().optional(),
    },
    run: ({ app, realm, user, args }) => editScheduledMessage(app, realm, user, args.scheduled_message_id, args),
  }),
  endpoint("DELETE", "/scheduled_messages/{scheduled_message_id}", {
    params: { scheduled_message_id: p.path.int() },
    run: ({ app, user, args }) => deleteScheduledMessage(app, user, args.scheduled_message_id),
  }),
  endpoint("GET", "/reminders", { params: {}, run: ({ app, user }) => listReminders(app, user) }),
  endpoint("POST", "/reminders", {
    params: reminderParams,
    run: ({ app, realm, user, args }) => createReminder(app, realm, user, args),
  }),
  endpoint("DELETE", "/reminders/{reminder_id}", {
    params: { reminder_id: p.path.int() },
    run: ({ app, user, args }) => deleteReminder(app, user, args.reminder_id),
  }),
];
