// One-click unsubscribe links from notification emails (missed-messages.ts makes them): which user a
// link is for, and turning that kind of email off.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { UNSUBSCRIBE_KINDS, type UnsubscribeKind } from "../domain/email";
import { safeEqual } from "../lib/random";
import { listUserSubscriptions } from "../store/subscriptions";
import { findUserById } from "../store/users";
import { unsubscribeMac } from "./missed-messages";
import { setSubscriptionProperties } from "./subscriptions";
import { updateOwnSettings } from "./user-settings";

/** The user an unsubscribe link is for, or null when the link is not one confab made. */
export async function unsubscribeTarget(
  app: App,
  realm: RealmRow,
  kind: string,
  token: string,
): Promise<{ user: UserRow; kind: UnsubscribeKind; what: string } | null> {
  if (!(kind in UNSUBSCRIBE_KINDS)) return null;
  const m = /^(\d+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m || !safeEqual(m[2]!, unsubscribeMac(app, Number(m[1]), kind))) return null;
  const user = await findUserById(app.db, Number(m[1]));
  if (!user?.isActive || user.realmId !== realm.id) return null;
  const k = kind as UnsubscribeKind;
  return { user, kind: k, what: UNSUBSCRIBE_KINDS[k].what };
}

/** Turns one kind of notification email off: the user's setting, and for channels each channel's own email setting. */
export async function unsubscribe(app: App, realm: RealmRow, user: UserRow, kind: UnsubscribeKind) {
  await updateOwnSettings(app, realm, user, { [UNSUBSCRIBE_KINDS[kind].setting]: false });
  if (kind === "channels") {
    const on = (await listUserSubscriptions(app.db, user.id)).filter((s) => s.active && s.emailNotifications === true);
    if (on.length)
      await setSubscriptionProperties(
        app,
        user,
        on.map((s) => ({ stream_id: s.channelId, property: "email_notifications", value: false })),
      );
  }
}
