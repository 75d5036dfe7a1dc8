// Push registration and video calls, answered as a Zulip server without a push notification service
// and without a call provider answers them.
import { afterAll, beforeAll, describe, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser();
});
afterAll(() => s.stop());

describe("legacy push tokens (APNs, FCM)", () => {
  test("kept and removed; a test notification for a known device succeeds and reaches nobody", async () => {
    await ok(ann.post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" }));
    await ok(ann.post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" })); // again: no error
    await ok(ann.post("/users/me/android_gcm_reg_id", { token: "fcm-token-1" }));
    await ok(ann.post("/mobile_push/test_notification", { token: "fcm-token-1" }));
    await ok(ann.post("/mobile_push/test_notification"));
    await ok(ann.delete("/users/me/android_gcm_reg_id", { token: "fcm-token-1" }));
    await expectError(ann.delete("/users/me/android_gcm_reg_id", { token: "fcm-token-1" }), 400, "BAD_REQUEST", "Token does not exist");
    await expectError(ann.post("/mobile_push/test_notification", { token: "fcm-token-1" }), 400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized");
    await ok(ann.delete("/users/me/apns_device_token", { token: "c0ffee" }));
  });

  test("Zulip's token checks", async () => {
    await expectError(ann.post("/users/me/apns_device_token", { token: "not-hex", appid: "org.zulip.Zulip" }), 400, "BAD_REQUEST", "Invalid APNS token");
    await expectError(ann.post("/users/me/android_gcm_reg_id", { token: "" }), 400, "BAD_REQUEST", "Empty or invalid length token");
    await expectError(ann.post("/users/me/android_gcm_reg_id", { token: "x".repeat(4097) }), 400, "BAD_REQUEST", "Empty or invalid length token");
    await expectError(ann.delete("/users/me/apns_device_token", { token: "abcd" }), 400, "BAD_REQUEST", "Token does not exist");
  });
});

describe("end-to-end encrypted push", () => {
  test("registration needs the push service this server does not have; so no device is ever active", async () => {
    const reg = {
      token_kind: "fcm",
      push_account_id: 42,
      push_public_key: "a2V5",
      bouncer_public_key: "Ym91bmNlcg==",
      encrypted_push_registration: "ZGF0YQ==",
    };
    await expectError(ann.post("/mobile_push/register", reg), 400, "PUSH_SERVICE_NOT_CONFIGURED", "Server is not configured to use push notification service.");
    await expectError(
      ann.post("/mobile_push/e2ee/test_notification", { push_account_id: 42 }),
      400,
      "NO_ACTIVE_PUSH_DEVICE",
      "No active registered push device",
    );
  });
});

describe("video calls", () => {
  test("BigBlueButton is not configured", async () => {
    await expectError(ann.get("/calls/bigbluebutton/create", { meeting_name: "standup" }), 400, "BAD_REQUEST", "BigBlueButton is not configured.");
    await expectError(ann.get("/calls/bigbluebutton/create", {}), 400, "REQUEST_VARIABLE_MISSING", "Missing 'meeting_name' argument");
  });
});
