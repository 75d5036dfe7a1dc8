import { newestReceivedId } from "../../store/message-flags";
import type { StateBuilder } from "./types";

/** The `message` fetch type: the newest message id the user has received (-1 when none). */
export const messageState: StateBuilder = async ({ app, user }) => {
  if (!user) return { max_message_id: -1 };
  return { max_message_id: (await newestReceivedId(app.db, user.id)) ?? -1 };
};
