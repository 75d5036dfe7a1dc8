import type { App } from "../context";
import { ALERT_WORDS } from "./messages";
import type { UserRow } from "../db/schema";
import { toUsers } from "../events/types";
import * as store from "../store/alert-words";

/** Words as stored: trimmed, without blanks; one entry per word whatever its case. */
function clean(words: string[], existing: string[] = []): string[] {
  const seen = new Set(existing.map((w) => w.toLowerCase()));
  const out: string[] = [];
  for (const w of words.map((x) => x.trim())) {
    if (!w || seen.has(w.toLowerCase())) continue;
    seen.add(w.toLowerCase());
    out.push(w);
  }
  return out;
}

export const getAlertWords = async (app: App, user: UserRow) => ({ alert_words: await store.listAlertWords(app.db, user.id) });

/** POST /users/me/alert_words: answers the whole list; the user's clients get it as an event. */
export async function addAlertWords(app: App, user: UserRow, words: string[]) {
  const add = clean(words, await store.listAlertWords(app.db, user.id));
  return await app.tx(async (tx) => {
    await store.addAlertWords(tx.db, user.id, add);
    app.reads.forget(ALERT_WORDS);
    const alert_words = await store.listAlertWords(tx.db, user.id);
    if (add.length) tx.emit({ type: "alert_words", alert_words }, toUsers([user.id]));
    return { alert_words };
  });
}

/** DELETE /users/me/alert_words: words are matched without regard to case. */
export async function removeAlertWords(app: App, user: UserRow, words: string[]) {
  const gone = new Set(words.map((w) => w.trim().toLowerCase()));
  const remove = (await store.listAlertWords(app.db, user.id)).filter((w) => gone.has(w.toLowerCase()));
  return await app.tx(async (tx) => {
    await store.removeAlertWords(tx.db, user.id, remove);
    app.reads.forget(ALERT_WORDS);
    const alert_words = await store.listAlertWords(tx.db, user.id);
    if (remove.length) tx.emit({ type: "alert_words", alert_words }, toUsers([user.id]));
    return { alert_words };
  });
}
