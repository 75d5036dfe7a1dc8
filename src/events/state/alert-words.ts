import { listAlertWords } from "../../store/alert-words";
import type { StateBuilder } from "./types";

/** `alert_words`: the caller's alert words. */
export const alertWordsState: StateBuilder = async ({ app, user }) => ({ alert_words: user ? await listAlertWords(app.db, user.id) : [] });
