import { listAlertWords } from "../../store/alert-words";
import type { StateBuilder } from "./types";

/** `alert_words`: the caller's alert words. */
export const alertWordsState: StateBuilder = ({ app, user }) => ({ alert_words: user ? listAlertWords(app.db, user.id) : [] });
