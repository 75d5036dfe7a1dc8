import {
  createReminder,
  createScheduledMessage,
  deleteReminder,
  deleteScheduledMessage,
  editScheduledMessage,
  editScheduleParams,
  listReminders,
  listScheduledMessages,
  reminderParams,
  scheduleParams,
} from "../../actions/scheduled-messages";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/scheduled_messages", { params: {}, run: ({ app, user }) => listScheduledMessages(app, user) }),
  endpoint("POST", "/scheduled_messages", {
    params: scheduleParams,
    run: ({ app, realm, user, args }) => createScheduledMessage(app, realm, user, args),
  }),
  endpoint("PATCH", "/scheduled_messages/{scheduled_message_id}", {
    params: { scheduled_message_id: p.path.int(), ...editScheduleParams },
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
