import { toApiUserStatus } from "../../domain/user-status";
import { listRealmStatuses } from "../../store/user-status";
import type { StateBuilder } from "./types";

/** `user_status`: every set status in the realm, keyed by user id. */
export const userStatusState: StateBuilder = async ({ app, realm }) => ({
  user_status: Object.fromEntries(
    (await listRealmStatuses(app.db, realm.id)).map((s) => [String(s.userId), toApiUserStatus(s)] as const).filter(([, v]) => Object.keys(v).length),
  ),
});
