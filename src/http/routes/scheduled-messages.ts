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
  endpoint("GET", "/scheduled_messages", { params: {}, run: async ({ app, user }) => await listScheduledMessages(app, user) }),
  endpoint("POST", "/scheduled_messages", {
    params: scheduleParams,
    run: async ({ app, realm, user, args }) => await createScheduledMessage(app, realm, user, args),
  }),
  endpoint("PATCH", "/scheduled_messages/{scheduled_message_id}", {
    params: { scheduled_message_id: p.path.int(), ...editScheduleParams },
    run: async ({ app, realm, user, args }) => await editScheduledMessage(app, realm, user, args.scheduled_message_id, args),
  }),
  endpoint("DELETE", "/scheduled_messages/{scheduled_message_id}", {
    params: { scheduled_message_id: p.path.int() },
    run: async ({ app, user, args }) => await deleteScheduledMessage(app, user, args.scheduled_message_id),
  }),
  endpoint("GET", "/reminders", { params: {}, run: async ({ app, user }) => await listReminders(app, user) }),
  endpoint("POST", "/reminders", {
    params: reminderParams,
    run: async ({ app, realm, user, args }) => await createReminder(app, realm, user, args),
  }),
  endpoint("DELETE", "/reminders/{reminder_id}", {
    params: { reminder_id: p.path.int() },
    run: async ({ app, user, args }) => await deleteReminder(app, user, args.reminder_id),
  }),
];
