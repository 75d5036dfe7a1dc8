// A new account reaches the clients of everyone who may see it: users created by people, by sign-up and
// by the server itself (its own bots, created when they first post).
import { accessibleUserIds, inaccessibleUser } from "../access/users";
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { toApiUser } from "../domain/users";
import { toUsers } from "../events/types";
import * as store from "../store/users";
import { filterInOrder } from "../lib/in-order";

/**
 * Announces a new user: everyone who may see them gets the real `realm_user` add; a guest limited by
 * can_access_all_users_group gets a stand-in instead, which events/present.ts drops for clients with
 * user_list_incomplete.
 */
export async function emitUserAdded(app: App, tx: Tx, realm: RealmRow, row: UserRow) {
  const person = toApiUser(row, { externalUrl: app.config.externalUrl });
  const users = (await store.listUsers(tx.db, realm.id)).filter((u) => u.isActive || u.id === row.id);
  const limited = (await filterInOrder(users, async (u) => u.id !== row.id && (await accessibleUserIds(app, realm, u)) !== null)).map((u) => u.id);
  const barred = new Set(limited);
  tx.emit({ type: "realm_user", op: "add", person }, toUsers(users.filter((u) => !barred.has(u.id)).map((u) => u.id)));
  if (limited.length) tx.emit({ type: "realm_user", op: "add", person: inaccessibleUser(app, realm, row.id), stand_in: true }, toUsers(limited));
}
