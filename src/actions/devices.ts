import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { invalidDeviceId } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/devices";

/** POST /register_client_device: a mobile client's device record (level 468). */
export async function registerDevice(app: App, user: UserRow) {
  const row = await app.tx(async (tx) => {
    const d = await store.insertDevice(tx.db, user.id, app.now());
    tx.emit({ type: "device", op: "add", device_id: d.id }, toUsers([user.id]));
    return d;
  });
  return { device_id: row.id };
}

/** POST /remove_client_device: at logout the client removes its record (level 470). */
export async function removeDevice(app: App, user: UserRow, id: number) {
  const row = await store.findDevice(app.db, user.id, id);
  if (!row) throw invalidDeviceId();
  await app.tx(async (tx) => {
    await store.deleteDevice(tx.db, row.id);
    tx.emit({ type: "device", op: "remove", device_id: row.id }, toUsers([user.id]));
  });
  return {};
}
