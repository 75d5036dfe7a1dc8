import { toApiReminder, toApiScheduledMessage } from "../../domain/scheduled-messages";
import { listUndelivered } from "../../store/scheduled-messages";
import type { StateBuilder } from "./types";

/** `scheduled_messages`: the caller's undelivered scheduled messages, soonest first. */
export const scheduledMessagesState: StateBuilder = async ({ app, user }) => ({
  scheduled_messages: user ? (await listUndelivered(app.db, user.id, "send_later")).map(toApiScheduledMessage) : [],
});

/** `reminders`: the caller's undelivered reminders, soonest first. */
export const remindersState: StateBuilder = async ({ app, user }) => ({
  reminders: user ? (await listUndelivered(app.db, user.id, "remind")).map(toApiReminder) : [],
});
