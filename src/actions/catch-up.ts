// Before a user's own user_messages rows are read, the channel messages delivered to them lazily get
// their rows (store/lazy-delivery.ts). A read that finds nothing pending writes nothing.
//
// What is pending is read before the transaction, outside the writer, so a catch-up with much to read
// does not hold up the sends sharing the writer's batch; the transaction only writes the ids read,
// guarded per subscription, and reads again inside only where a guard found that something changed.
//
// Those rows are derived: a read never depends on writing them. While the disk is full the rows may not
// be written (here) or not committed (the server then answers reads anyway, http/server.ts); what stays
// pending is written by a later read.
import type { App } from "../context";
import { isStorageFull } from "../db/client";
import type { UserRow } from "../db/schema";
import { readBacklog, readPendingRows, writePendingRead, writePendingRows } from "../store/lazy-delivery";

type Where = Parameters<typeof readPendingRows>[1];

/** Reads what `where` lacks outside the writer, then writes it (nothing when nothing is pending). */
async function deliverPending(app: App, where: Where) {
  const pending = await readPendingRows(app.db, where);
  if (!pending.length) return;
  await app.tx(
    async (tx) => {
      if (!(await writePendingRead(tx.db, pending))) await writePendingRows(tx.db, where);
    },
    { keepsLookups: true },
  );
}

export async function catchUp(app: App, user: UserRow | null) {
  if (!user) return;
  try {
    await deliverPending(app, { userId: user.id });
  } catch (e) {
    if (!isStorageFull(e)) throw e;
    app.log.warn("disk full: delivery rows left for later", { user: user.id });
  }
}

/**
 * Every subscriber of these channels gets their rows: before an export, which carries them, and before
 * a change whose audience is whoever holds a message (a reaction, an edit, a deletion), whose
 * transaction makes sure of them again (store/message-flags.ts) and so finds nothing left to read.
 */
export async function catchUpChannels(app: App, channelIds: number[]) {
  if (channelIds.length) await deliverPending(app, { channelIds });
}

/**
 * Housekeeping's chunk: up to `limit` rows of the subscriptions at least `lag` messages behind, read
 * outside the writer (a subscription that changed in between waits for the next chunk). Returns how
 * many were read.
 */
export async function deliverBacklog(app: App, lag: number, limit: number): Promise<number> {
  const pending = await readBacklog(app.db, lag, limit);
  if (pending.length) await app.tx(async (tx) => await writePendingRead(tx.db, pending), { keepsLookups: true });
  return pending.reduce((n, p) => n + p.count, 0);
}
