import { toApiDevice } from "../../serializers/devices";
import { listDevices } from "../../store/devices";
import type { StateBuilder } from "./types";

/** `device`: the caller's registered client devices by id (zulip-flutter reads them). */
export const devicesState: StateBuilder = async ({ app, user }) => ({
  devices: Object.fromEntries((user ? await listDevices(app.db, user.id) : []).map((d) => [String(d.id), toApiDevice()])),
});
