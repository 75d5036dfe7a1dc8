import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { invalidDeviceId } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/devices";

/** POST /register_client_device: a mobile client's device record (level 468). */
export function registerDevice(app: App, user: UserRow) {
  const row = app.tx((tx) => {
    const d = store.insertDevice(tx.db, user.id, app.now());
    tx.emit({ type: "device", op: "add", device_id: d.id }, toUsers([user.id]));
    return d;
  });
  return { device_id: row.id };
}

/** POST /remove_client_device: at logout the client removes its record (level 470). */
export function removeDevice(app: App, user: UserRow, id: number) {
  const row = store.findDevice(app.db, user.id, id);
  if (!row) throw invalidDeviceId();
  app.tx((tx) => {
    store.deleteDevice(tx.db, row.id);
    tx.emit({ type: "device", op: "remove", device_id: row.id }, toUsers([user.id]));
  });
  return {};
}
