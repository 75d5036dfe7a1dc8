import type { App } from "../app";
import type { UserRow } from "../db/schema";
import { invalidParam } from "../domain/errors";
import * as store from "../store/devices";

/** POST /register_client_device: a mobile client's device record (level 468). */
export function registerDevice(app: App, user: UserRow) {
  const row = app.tx((tx) => store.insertDevice(tx.db, user.id, app.now()));
  return { device_id: row.id };
}

/** POST /remove_client_device: at logout the client removes its record (level 470). */
export function removeDevice(app: App, user: UserRow, id: number) {
  const row = store.findDevice(app.db, user.id, id);
  if (!row) throw invalidParam("Invalid device ID");
  app.tx((tx) => store.deleteDevice(tx.db, row.id));
  return {};
}
