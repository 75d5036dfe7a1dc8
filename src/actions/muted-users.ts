import type { App } from "../context";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { cannotMuteSelf, noSuchUser, userAlreadyMuted, userNotMuted } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/muted-users";
import { findUserById } from "../store/users";

async function mutable(app: App, user: UserRow, id: number): Promise<UserRow> {
  if (id === user.id) throw cannotMuteSelf();
  const target = await findUserById(app.db, id);
  if (!target || target.realmId !== user.realmId || target.isBot) throw noSuchUser();
  return target;
}

const announce = async (tx: Tx, user: UserRow) => tx.emit({ type: "muted_users", muted_users: await store.listMutedUsers(tx.db, user.id) }, toUsers([user.id]));

/** POST /users/me/muted_users/{muted_user_id}. */
export async function muteUser(app: App, user: UserRow, id: number) {
  const target = await mutable(app, user, id);
  if (await store.isMuted(app.db, user.id, target.id)) throw userAlreadyMuted();
  await app.tx(async (tx) => {
    await store.insertMute(tx.db, user.id, target.id, app.now());
    await announce(tx, user);
  });
  return {};
}

/** DELETE /users/me/muted_users/{muted_user_id}. */
export async function unmuteUser(app: App, user: UserRow, id: number) {
  const target = await mutable(app, user, id);
  if (!(await store.isMuted(app.db, user.id, target.id))) throw userNotMuted();
  await app.tx(async (tx) => {
    await store.deleteMute(tx.db, user.id, target.id);
    await announce(tx, user);
  });
  return {};
}
