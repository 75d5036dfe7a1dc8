// Changing one's email address with email on, as Zulip does: PATCH /settings mails a single-use link to
// the new address, and following it makes the change (and tells the old address).
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { emailChangedMail, emailChangeMail } from "../domain/email";
import { emailAddressChangesDisabledOrganization, emailInUse, linkExpired } from "../domain/errors";
import { realmSetting } from "../domain/realm-settings";
import { realmUrl } from "../domain/realms";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import { useEmailTokens } from "../store/email";
import { findUserByEmail, updateUser } from "../store/users";
import { newEmailTokenTx, openEmailToken, queueMailTx } from "./email";

const LINK_HOURS = 24;

/** Inside PATCH /settings' transaction: the confirmation link, mailed to the new address. */
export async function mailEmailChangeTx(app: App, tx: Tx, realm: RealmRow, user: UserRow, newEmail: string) {
  const token = await newEmailTokenTx(app, tx, "email_change", user.id, LINK_HOURS, newEmail);
  const link = `${realmUrl(app.config.externalUrl, realm.stringId)}/accounts/confirm_new_email/${token}/`;
  await queueMailTx(app, tx, realm.id, "email_change", emailChangeMail({ to: newEmail, org: realm.name, oldEmail: user.email, link, hours: LINK_HOURS }));
}

/** The change a confirmation link stands for, or null when the link is unknown, used or expired. */
export async function openEmailChange(app: App, realm: RealmRow, token: string): Promise<{ user: UserRow; newEmail: string } | null> {
  const found = await openEmailToken(app, "email_change", token);
  return found && found.user.realmId === realm.id ? { user: found.user, newEmail: found.token.newEmail! } : null;
}

/** Following the link: the address changes (if the organization still allows it and it is still free). */
export async function confirmEmailChange(app: App, realm: RealmRow, token: string): Promise<{ oldEmail: string; newEmail: string }> {
  return await app.tx(async (tx) => {
    const found = await openEmailChange(app, realm, token);
    if (!found) throw linkExpired();
    const { user, newEmail } = found;
    if (realmSetting(realm, "email_changes_disabled") && !isAdmin(user.role)) throw emailAddressChangesDisabledOrganization();
    if (await findUserByEmail(tx.db, realm.id, newEmail)) throw emailInUse(newEmail);
    await useEmailTokens(tx.db, user.id, "email_change", app.now());
    await updateUser(tx.db, user.id, { email: newEmail });
    for (const person of emailChangeUpdates(newEmail))
      tx.emit({ type: "realm_user", op: "update", person: { user_id: user.id, ...person } }, toRealm(realm.id));
    await queueMailTx(app, tx, realm.id, "email_changed", emailChangedMail({ to: user.email, org: realm.name, newEmail }));
    return { oldEmail: user.email, newEmail };
  });
}

/** The realm_user updates an email change makes (Zulip sends the two separately). */
export const emailChangeUpdates = (email: string) => [{ new_email: email }, { delivery_email: email }];
