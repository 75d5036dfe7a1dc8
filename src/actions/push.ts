// Mobile push registration, answered as a Zulip server without a push notification service answers:
// APNs/FCM tokens are accepted and kept (a test notification "succeeds" and reaches nobody), while the
// end-to-end encrypted registration, which needs the service, is refused with Zulip's error.
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import {
  invalidApnsToken,
  invalidAppId,
  invalidPushToken,
  noActivePushDevice,
  pushDeviceNotRecognized,
  pushServiceNotConfigured,
  pushTokenMissing,
} from "../domain/errors";
import * as store from "../store/push-tokens";

type Kind = "apns" | "fcm";

function checkToken(kind: Kind, token: string) {
  if (token === "" || token.length > 4096) throw invalidPushToken();
  if (kind === "apns" && !/^(?:[0-9a-fA-F]{2})+$/.test(token)) throw invalidApnsToken();
}

export async function addPushToken(app: App, user: UserRow, kind: Kind, token: string, appId?: string) {
  checkToken(kind, token);
  if (appId !== undefined && !/^[.a-zA-Z0-9-]+$/.test(appId)) throw invalidAppId();
  await app.tx(async (tx) => await store.savePushToken(tx.db, user.id, kind, token, appId ?? null, app.now()));
  return {};
}

export async function removePushToken(app: App, user: UserRow, kind: Kind, token: string) {
  checkToken(kind, token);
  await app.tx(async (tx) => {
    if (!(await store.deletePushToken(tx.db, user.id, kind, token))) throw pushTokenMissing();
  });
  return {};
}

/** POST /mobile_push/test_notification: with no push service configured there is nothing to send. */
export async function testPushNotification(app: App, user: UserRow, token?: string) {
  if (token !== undefined && !(await store.hasPushToken(app.db, user.id, token))) throw pushDeviceNotRecognized();
  app.log.info("push notifications are not configured; test notification not sent", { user_id: user.id });
  return {};
}

export const registerE2eePush = () => {
  throw pushServiceNotConfigured();
};

/** No device can register for E2EE pushes (above), so none is ever active. */
export const testE2eePushNotification = () => {
  throw noActivePushDevice();
};
