import { addPushToken, registerE2eePush, removePushToken, testE2eePushNotification, testPushNotification } from "../../actions/push";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/users/me/apns_device_token", {
    params: { token: p.str(), appid: p.str() },
    run: ({ app, user, args }) => addPushToken(app, user, "apns", args.token, args.appid),
  }),
  endpoint("DELETE", "/users/me/apns_device_token", {
    params: { token: p.str() },
    run: ({ app, user, args }) => removePushToken(app, user, "apns", args.token),
  }),
  endpoint("POST", "/users/me/android_gcm_reg_id", {
    params: { token: p.str() },
    run: ({ app, user, args }) => addPushToken(app, user, "fcm", args.token),
  }),
  endpoint("DELETE", "/users/me/android_gcm_reg_id", {
    params: { token: p.str() },
    run: ({ app, user, args }) => removePushToken(app, user, "fcm", args.token),
  }),
  endpoint("POST", "/mobile_push/test_notification", {
    params: { token: p.str().optional() },
    run: ({ app, user, args }) => testPushNotification(app, user, args.token),
  }),
  endpoint("POST", "/mobile_push/register", {
    params: {
      token_kind: p.enum(["fcm", "apns"] as const),
      push_account_id: p.int(),
      push_public_key: p.str(),
      bouncer_public_key: p.str(),
      encrypted_push_registration: p.str(),
    },
    run: () => registerE2eePush(),
  }),
  endpoint("POST", "/mobile_push/e2ee/test_notification", {
    params: { push_account_id: p.int().optional() },
    run: () => testE2eePushNotification(),
  }),
];
