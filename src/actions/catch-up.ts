// Before a user's own user_messages rows are read, the channel messages delivered to them lazily get
// their rows (store/lazy-delivery.ts). A read that finds nothing pending writes nothing.
//
// Those rows are derived: a read never depends on writing them. While the disk is full the rows may not
// be written (here) or not committed (the server then answers reads anyway, http/server.ts); what stays
// pending is written by a later read.
import type { App } from "../context";
import { isStorageFull } from "../db/client";
import type { UserRow } from "../db/schema";
import { writePendingRows, hasPending } from "../store/lazy-delivery";

export function catchUp(app: App, user: UserRow | null) {
  if (!user || !hasPending(app.db, user.id)) return;
  try {
    app.tx((tx) => writePendingRows(tx.db, { userId: user.id }), { keepsLookups: true });
  } catch (e) {
    if (!isStorageFull(e)) throw e;
    app.log.warn("disk full: delivery rows left for later", { user: user.id });
  }
}
