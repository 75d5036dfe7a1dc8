import { toApiReminder, toApiScheduledMessage } from "../../domain/scheduled-messages";
import { listUndelivered } from "../../store/scheduled-messages";
import type { StateBuilder } from "./types";

/** `scheduled_messages`: the caller's undelivered scheduled messages, soonest first. */
export const scheduledMessagesState: StateBuilder = ({ app, user }) => ({
  scheduled_messages: user ? listUndelivered(app.db, user.id, "send_later").map(toApiScheduledMessage) : [],
});

/** `reminders`: the caller's undelivered reminders, soonest first. */
export const remindersState: StateBuilder = ({ app, user }) => ({ reminders: user ? listUndelivered(app.db, user.id, "remind").map(toApiReminder) : [] });
