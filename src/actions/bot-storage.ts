// The bot storage API (GET/PUT/DELETE /bot_storage): a user's (in practice a bot's) string key/value
// pairs, as Zulip serves them to python-zulip-api's get_storage/update_storage and the bots' StateHandler.
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { keyMissing, requestExceedsStorageLimitCharacters } from "../domain/errors";
import * as store from "../store/bot-storage";

/** Zulip's USER_STATE_SIZE_LIMIT: characters of keys and values together. */
export const STORAGE_LIMIT = 10_000_000;

export async function getStorage(app: App, user: UserRow, keys?: string[]) {
  if (!keys?.length) return { storage: Object.fromEntries((await store.listStorage(app.db, user.id)).map((e) => [e.key, e.value])) };
  const found = await store.storageEntries(app.db, user.id, keys);
  if (keys.some((k) => !found.has(k))) throw keyMissing();
  return { storage: Object.fromEntries(keys.map((k) => [k, found.get(k)!])) };
}

export async function updateStorage(app: App, user: UserRow, storage: Record<string, string>) {
  const entries = Object.entries(storage);
  const old = await store.storageEntries(
    app.db,
    user.id,
    entries.map(([k]) => k),
  );
  const growth = entries.reduce((n, [k, v]) => n + k.length + v.length - (old.has(k) ? k.length + old.get(k)!.length : 0), 0);
  const size = (await store.storageSize(app.db, user.id)) + growth;
  if (size > STORAGE_LIMIT) throw requestExceedsStorageLimitCharacters(size - STORAGE_LIMIT, STORAGE_LIMIT);
  await app.tx(
    async (tx) => {
      for (const [k, v] of entries) await store.putStorage(tx.db, user.id, k, v);
    },
    { keepsLookups: true },
  );
  return {};
}

/** Removes the keys (every key when none is named); a missing key removes nothing. */
export async function removeStorage(app: App, user: UserRow, keys?: string[]) {
  const targets = keys?.length ? [...new Set(keys)] : (await store.listStorage(app.db, user.id)).map((e) => e.key);
  if ((await store.storageEntries(app.db, user.id, targets)).size < targets.length) throw keyMissing();
  await app.tx(async (tx) => await store.deleteStorage(tx.db, user.id, targets), { keepsLookups: true });
  return {};
}
