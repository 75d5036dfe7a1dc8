import type { PresenceRow } from "../db/schema";

/** Zulip's timing: clients ping every minute; a user silent for longer than this is offline. */
export const PRESENCE_PING_INTERVAL_SECS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECS = 140;

/** The modern format: when a client last reported the user active, and last had any client connected. */
export const modernPresence = (p: PresenceRow) => ({
  active_timestamp: p.lastActiveTime ?? 0,
  idle_timestamp: p.lastConnectedTime,
});

/** The legacy format ("website" and "aggregated" with the same data, as Zulip sends since level 178). */
export function legacyPresence(p: PresenceRow) {
  const active = p.lastActiveTime !== null && p.lastActiveTime >= p.lastConnectedTime - PRESENCE_OFFLINE_THRESHOLD_SECS;
  const entry = { client: "website", status: active ? "active" : "idle", timestamp: active ? p.lastActiveTime! : p.lastConnectedTime, pushable: false };
  return { website: entry, aggregated: { client: entry.client, status: entry.status, timestamp: entry.timestamp } };
}
