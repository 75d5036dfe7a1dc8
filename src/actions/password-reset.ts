// Password reset by email, as Zulip does it: the request always gets the same answer whether or not the
// address has an account; an account gets a single-use link that expires; following it sets a new
// password and ends the person's other sessions. Requests are rate-limited per client address, per
// email address asked about and per account.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { linkExpired, twoPasswordFieldsDidntMatch } from "../domain/errors";
import { passwordResetMail } from "../domain/email";
import { realmUrl } from "../domain/realms";
import { FailureLimiter } from "../lib/rate-limit";
import { useEmailTokens } from "../store/email";
import { findUserByEmail } from "../store/users";
import { newEmailTokenTx, openEmailToken, queueMailTx, requireEmail } from "./email";
import { checkPassword, hashPassword, passwordChangedTx } from "./users";

export const RESET_LINK_HOURS = 24;
const HOUR_MS = 3600_000;

/** Per app: mails per email address and per account, and requests per client address, each per hour. */
const limiters = new WeakMap<App, { address: FailureLimiter; client: FailureLimiter }>();
const limitsOf = (app: App) => {
  let l = limiters.get(app);
  const shared = (prefix: string) => (app.sharedCounters ? { counter: app.sharedCounters, prefix } : null);
  if (!l)
    limiters.set(
      app,
      (l = { address: new FailureLimiter(5, HOUR_MS, shared("reset-address")), client: new FailureLimiter(60, HOUR_MS, shared("reset-client")) }),
    );
  return l;
};

/**
 * "Forgot password?": mails a reset link when `email` has an active account in the realm. The answer
 * never says whether it does; only a client sending too many requests hears RATE_LIMIT_HIT.
 */
export async function requestPasswordReset(app: App, realm: RealmRow, email: string, clientIp: string) {
  requireEmail(app);
  const limits = limitsOf(app);
  await limits.client.check(`ip:${clientIp}`);
  await limits.client.fail(`ip:${clientIp}`);
  const address = `${realm.id}:${email.trim().toLowerCase()}`;
  if (await limits.address.waitFor(address)) return app.log.warn("password reset: too many requests for one address", { realm: realm.stringId });
  await limits.address.fail(address);
  const user = await findUserByEmail(app.db, realm.id, email.trim());
  if (!user || !user.isActive || user.isBot || realm.deactivated) return;
  // Addresses differing only in case reach the same account: it is limited on its own too.
  if (await limits.address.waitFor(`user:${user.id}`)) return app.log.warn("password reset: too many requests for one account", { user_id: user.id });
  await limits.address.fail(`user:${user.id}`);
  await app.tx(async (tx) => {
    const token = await newEmailTokenTx(app, tx, "password_reset", user.id, RESET_LINK_HOURS);
    const link = resetLink(realmUrl(app.config.externalUrl, realm.stringId), user.id, token);
    await queueMailTx(app, tx, realm.id, "password_reset", passwordResetMail({ to: user.email, org: realm.name, link, hours: RESET_LINK_HOURS }));
  });
}

/** Zulip's confirm path: /accounts/password/reset/<uidb64>/<token>/. */
const resetLink = (base: string, userId: number, token: string) =>
  `${base}/accounts/password/reset/${Buffer.from(String(userId)).toString("base64url")}/${token}/`;

/** The account a reset link is for, or null when the link is unknown, used, expired or for another user. */
export async function openResetLink(app: App, realm: RealmRow, uidb64: string, token: string): Promise<UserRow | null> {
  const found = await openEmailToken(app, "password_reset", token);
  if (!found || found.user.realmId !== realm.id || Buffer.from(uidb64, "base64url").toString() !== String(found.user.id)) return null;
  return found.user;
}

/** Sets the new password from a reset link, uses up the user's reset links and ends their other sessions. */
export async function resetPassword(app: App, realm: RealmRow, uidb64: string, token: string, password: string, confirm: string) {
  if (!(await openResetLink(app, realm, uidb64, token))) throw linkExpired();
  if (password !== confirm) throw twoPasswordFieldsDidntMatch();
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  return await app.tx(async (tx) => {
    const user = await openResetLink(app, realm, uidb64, token); // the hash took a while: still open?
    if (!user) throw linkExpired();
    await useEmailTokens(tx.db, user.id, "password_reset", app.now());
    await passwordChangedTx(app, tx, user, passwordHash, { endSessions: true });
    return user;
  });
}
