// Mail: every message goes into the outbox inside the transaction of the change that causes it, and
// runtime/email.ts sends it later (never on the request path). Also the single-use links mail carries.
import type { App } from "../context";
import type { EmailTokenRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { emailNotConfigured } from "../domain/errors";
import type { Mail, MailKind } from "../domain/email";
import { randomToken } from "../lib/random";
import * as store from "../store/email";
import { findUserById } from "../store/users";

/** Refuses what needs mail while email is off: the caller hears it plainly instead of a silent nothing. */
export function requireEmail(app: App) {
  if (!app.config.email.enabled) throw emailNotConfigured();
}

/** Puts a message in the outbox inside the caller's transaction; the worker is woken after COMMIT. */
export async function queueMailTx(app: App, tx: Tx, realmId: number | null, kind: MailKind, mail: Mail) {
  await store.insertOutbox(tx.db, {
    realmId,
    kind,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers ?? null,
    nextAttemptAt: app.now(),
    createdAt: app.now(),
  });
  tx.afterCommit(() => app.listeners.mailQueued?.());
}

/** The outbox as `confab email outbox` shows it: newest first, without bodies (they hold links). */
export const listOutbox = async (app: App, o: { status?: string; limit?: number } = {}) =>
  (await store.listOutbox(app.db, o.limit ?? 50, o.status)).map(({ id, kind, to, subject, status, attempts, lastError, createdAt, sentAt, nextAttemptAt }) => ({
    id,
    kind,
    to,
    subject,
    status,
    attempts,
    lastError,
    createdAt,
    sentAt,
    nextAttemptAt: status === "pending" ? nextAttemptAt : null,
  }));

// ---- Single-use links ----

const hashToken = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

/** A new single-use token of `kind` for a user, valid `hours`; only its hash is stored. Returns the secret. */
export async function newEmailTokenTx(
  app: App,
  tx: Tx,
  kind: "password_reset" | "email_change",
  userId: number,
  hours: number,
  newEmail: string | null = null,
): Promise<string> {
  const token = randomToken(40);
  await store.insertEmailToken(tx.db, { kind, userId, tokenHash: hashToken(token), newEmail, createdAt: app.now(), expiresAt: app.now() + hours * 3600 });
  return token;
}

/** The open token behind a link, with its user, or null when it is unknown, used, expired or its user gone. */
export async function openEmailToken(app: App, kind: string, token: string): Promise<{ token: EmailTokenRow; user: UserRow } | null> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return null;
  const row = await store.findEmailToken(app.db, hashToken(token));
  if (!row || row.kind !== kind || row.usedAt !== null || row.expiresAt <= app.now()) return null;
  const user = await findUserById(app.db, row.userId);
  return user?.isActive ? { token: row, user } : null;
}
