import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { invalidStatus, noPresenceData } from "../domain/errors";
import { legacyPresence, modernPresence, PRESENCE_OFFLINE_THRESHOLD_SECS } from "../domain/presence";
import { toRealm } from "../events/types";
import * as store from "../store/presence";
import { updateUser } from "../store/users";
import { userByIdOrEmail } from "./users";
import { p, type Args } from "../domain/params";
import { realmPresences } from "../serializers/presence";

export const presenceParams = {
  status: p.str(),
  ping_only: p.bool().optional(false),
  new_user_input: p.bool().optional(false),
  slim_presence: p.bool().optional(false),
  last_update_id: p.int().optional(),
  history_limit_days: p.int({ min: 0 }).optional(),
};

export type PresenceUpdate = Args<typeof presenceParams>;

/**
 * POST /users/me/presence. Every ping records the connection; the realm hears of it (a `presence`
 * event) only when others would see a change: the user comes online, or turns active from idle.
 */
export async function updatePresence(app: App, user: UserRow, u: PresenceUpdate) {
  if (u.status !== "active" && u.status !== "idle") throw invalidStatus(u.status);
  const now = app.now();
  await app.tx(async (tx) => {
    const prev = await store.findPresence(tx.db, user.id);
    const wasOffline = !prev || prev.lastConnectedTime < now - PRESENCE_OFFLINE_THRESHOLD_SECS;
    const wasIdle = !prev?.lastActiveTime || prev.lastActiveTime < now - PRESENCE_OFFLINE_THRESHOLD_SECS;
    const becameActive = u.status === "active" && wasIdle;
    const row = {
      userId: user.id,
      realmId: user.realmId,
      lastConnectedTime: now,
      lastActiveTime: u.status === "active" ? now : (prev?.lastActiveTime ?? null),
      lastUpdateId: wasOffline || becameActive ? (await store.maxPresenceUpdateId(tx.db, user.realmId)) + 1 : (prev?.lastUpdateId ?? 0),
    };
    await store.upsertPresence(tx.db, row);
    if (u.status === "active") await updateUser(tx.db, user.id, { lastActive: now });
    if (wasOffline || becameActive)
      tx.emit(
        {
          type: "presence",
          user_id: user.id,
          email: user.email,
          server_timestamp: now,
          presence: { website: legacyPresence(row).website },
          presences: { [user.id]: modernPresence(row) },
        },
        toRealm(user.realmId),
      );
  });
  if (u.ping_only) return {};
  const days = u.history_limit_days ?? 14;
  return {
    ...(await realmPresences(app, user.realmId, u.slim_presence || u.last_update_id !== undefined, days, u.last_update_id)),
    server_timestamp: Date.now() / 1000,
  };
}

/** GET /realm/presence (legacy format, keyed by email). */
export async function getRealmPresence(app: App, realm: RealmRow) {
  return { presences: (await realmPresences(app, realm.id, false, 14)).presences, server_timestamp: Date.now() / 1000 };
}

/** GET /users/{user_id_or_email}/presence. */
export async function getUserPresence(app: App, viewer: UserRow, idOrEmail: string) {
  const target = await userByIdOrEmail(app, viewer, idOrEmail);
  const p = await store.findPresence(app.db, target.id);
  if (!p) throw noPresenceData(target.email);
  const { website, aggregated } = legacyPresence(p);
  // This endpoint's entries carry only status and timestamp.
  return {
    presence: { website: { status: website.status, timestamp: website.timestamp }, aggregated: { status: aggregated.status, timestamp: aggregated.timestamp } },
  };
}
