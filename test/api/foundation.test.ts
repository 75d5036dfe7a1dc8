import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { CONFAB_DEVELOPMENT: "true" } });
});
afterAll(() => s.stop());

describe("server_settings", () => {
  test("answers without credentials, with the contract's service_* names and Zulip's", async () => {
    const r = await ok(s.anon.get("/server_settings"));
    expect(r.realm_name).toBe("Confab");
    expect(r.realm_url).toBe(s.url);
    expect(r.realm_uri).toBe(r.realm_url);
    expect(r.service_feature_level).toBeGreaterThanOrEqual(167);
    expect(r.zulip_feature_level).toBe(r.service_feature_level);
    expect(r.zulip_version).toBe(r.service_version);
    expect(r.zulip_merge_base).toBe(r.service_merge_base);
    expect(r.authentication_methods).toMatchObject({ password: true, dev: true, "openid connect": false });
  });
});

describe("users/me", () => {
  test("the owner", async () => {
    const me = await ok(s.owner.get("/users/me"));
    expect(me).toMatchObject({ user_id: s.owner.userId, email: s.owner.email, role: 100, is_owner: true, is_admin: true, is_bot: false });
  });
});
