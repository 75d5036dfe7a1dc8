// Before a user's own user_messages rows are read, the channel messages delivered to them lazily get
// their rows (store/deliveries.ts). A read that finds nothing pending writes nothing.
import type { App } from "../app";
import type { UserRow } from "../db/schema";
import { deliver, hasPending } from "../store/deliveries";

export function catchUp(app: App, user: UserRow | null) {
  if (user && hasPending(app.db, user.id)) app.tx((tx) => deliver(tx.db, { userId: user.id }), { keepsLookups: true });
}
