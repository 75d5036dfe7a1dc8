import type { StateBuilder } from "./types";

/** The `message` fetch type: the newest message id the user has received (-1 when none). */
export const messageState: StateBuilder = ({ app, user }) => {
  if (!user) return { max_message_id: -1 };
  const r = app.sqlite.query<{ id: number | null }, [number]>("SELECT MAX(message_id) AS id FROM user_messages WHERE user_id = ?").get(user.id);
  return { max_message_id: r?.id ?? -1 };
};
