import type { App } from "../context";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { cannotMuteSelf, noSuchUser, userAlreadyMuted, userNotMuted } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/muted-users";
import { findUserById } from "../store/users";

function mutable(app: App, user: UserRow, id: number): UserRow {
  if (id === user.id) throw cannotMuteSelf();
  const target = findUserById(app.db, id);
  if (!target || target.realmId !== user.realmId || target.isBot) throw noSuchUser();
  return target;
}

const announce = (tx: Tx, user: UserRow) => tx.emit({ type: "muted_users", muted_users: store.listMutedUsers(tx.db, user.id) }, toUsers([user.id]));

/** POST /users/me/muted_users/{muted_user_id}. */
export function muteUser(app: App, user: UserRow, id: number) {
  const target = mutable(app, user, id);
  if (store.isMuted(app.db, user.id, target.id)) throw userAlreadyMuted();
  app.tx((tx) => {
    store.insertMute(tx.db, user.id, target.id, app.now());
    announce(tx, user);
  });
  return {};
}

/** DELETE /users/me/muted_users/{muted_user_id}. */
export function unmuteUser(app: App, user: UserRow, id: number) {
  const target = mutable(app, user, id);
  if (!store.isMuted(app.db, user.id, target.id)) throw userNotMuted();
  app.tx((tx) => {
    store.deleteMute(tx.db, user.id, target.id);
    announce(tx, user);
  });
  return {};
}
