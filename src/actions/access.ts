import type { App, Revocation } from "../context";

export const isRevocation = (v: unknown): v is Revocation =>
  typeof v === "object" &&
  v !== null &&
  (Number.isSafeInteger((v as { userId?: unknown }).userId) || Number.isSafeInteger((v as { realmId?: unknown }).realmId));

/**
 * Ends, in this process, what the revoked still hold: event queues, and with them held long-polls.
 * A user's browser sessions, where they exist, end here too. Every path calls it through `app.revoke`: the API's actions
 * in the server, and the CLI's, which the CLI then sends to the running server over its control socket
 * (runtime/control.ts), where it runs again.
 */
export function endAccess(app: App, r: Revocation) {
  if ("userId" in r) app.queues.dropUser(r.userId);
  else app.queues.dropRealm(r.realmId);
}
