// Organization secrets over HTTP: the contract's name rules and bounds, the hint, who may do what,
// events, register state, and that the database file never holds a value.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { sqliteFileOnly, startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let ann: Client;
let bob: Client;
let guest: Client;
let bot: Client;

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200 });
  ann = await s.newUser();
  bob = await s.newUser();
  guest = await s.newUser({ role: 600 });
  const b = await ok(ann.post("/bots", { full_name: "Helper", short_name: "secrets-helper" }));
  const email = (await ok(ann.get(`/users/${b.user_id}`))).user.email;
  bot = s.client(email, b.api_key, b.user_id);
});
afterAll(() => s.stop());

const events = async (c: Client, q: Record<string, any>) => (await drain(c, q)).filter((e) => e.type !== "heartbeat");

const add = (c: Client, name: string, secret = "value-1", note?: string) => c.post("/ext/secrets", { name, secret, ...(note === undefined ? {} : { note }) });

describe("POST /ext/secrets", () => {
  test("the secret object, an ext_secret event to members only, and register state", async () => {
    const qs = await Promise.all([ann, bob, guest, bot].map((c) => ok(c.post("/register", { event_types: ["ext_secret"] }))));
    const res = await ok(add(ann, "GITHUB_TOKEN", "ghp_0123456789abcdefXYZ9", "CI bot"));
    expect(res.secret).toEqual({
      name: "GITHUB_TOKEN",
      hint: "XYZ9",
      note: "CI bot",
      added_by: ann.userId,
      date_added: expect.any(Number),
      replaced_by: null,
      date_replaced: null,
      date_used: null,
    });
    expect(Math.abs(res.secret.date_added - Date.now() / 1000)).toBeLessThan(5);
    for (const [c, q] of [ann, bob].map((c, i) => [c, qs[i]] as const))
      expect(await events(c, q)).toEqual([{ type: "ext_secret", op: "add", secret: res.secret, id: 0 }]);
    expect(await events(guest, qs[2]!)).toEqual([]);
    expect(await events(bot, qs[3]!)).toEqual([]);
    const state = await ok(bob.post("/register", { fetch_event_types: ["ext_secret"] }));
    expect(state.ext_secrets).toEqual([res.secret]);
    expect((await ok(guest.post("/register", { fetch_event_types: ["ext_secret"] }))).ext_secrets).toEqual([]);
    expect((await ok(bob.get("/ext/secrets"))).secrets).toEqual([res.secret]);
  });

  test("name rules: capitals, digits and _, not starting with a digit, at most 64 characters", async () => {
    const bad = "Secret names use only capital letters, digits and '_', and do not start with a digit";
    for (const name of ["lower", "Mixed_Case", "1ST", "WITH-DASH", "WITH SPACE", "ÄPFEL", "A.B"]) await expectError(add(ann, name), 400, "BAD_REQUEST", bad);
    await expectError(add(ann, ""), 400, "BAD_REQUEST", "Secret name cannot be empty");
    await expectError(add(ann, "A".repeat(65)), 400, "BAD_REQUEST", "Secret name is too long (limit: 64 characters)");
    await ok(add(ann, "A".repeat(64)));
    await ok(add(ann, "_UNDER_1"));
    await ok(add(ann, "X9"));
  });

  test("names every run needs, runtime prefixes and names in use are refused", async () => {
    for (const name of ["PATH", "HOME", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "LANG", "TZ"])
      await expectError(add(ann, name), 400, "BAD_REQUEST", `Secret name '${name}' is reserved: every run sets it itself`);
    for (const [name, prefix] of [
      ["EXT_TOKEN", "EXT_"],
      ["LC_ALL", "LC_"],
      ["LD_PRELOAD", "LD_"],
      ["CONFAB_X", "CONFAB_"],
      ["ZULIP_API_KEY", "ZULIP_"],
      ["GIT_DIR", "GIT_"],
    ])
      await expectError(add(ann, name), 400, "BAD_REQUEST", `Secret names starting with '${prefix}' are reserved for the runtime`);
    await ok(add(ann, "IN_USE"));
    await expectError(add(bob, "IN_USE"), 400, "BAD_REQUEST", "A secret named 'IN_USE' already exists");
    // EXTRA is not EXT_; HOMEPAGE is not HOME.
    await ok(add(ann, "EXTRA"));
    await ok(add(ann, "HOMEPAGE_KEY"));
  });

  test("value 1 to 4096 characters, note at most 200; nothing is kept on an error", async () => {
    await expectError(add(ann, "EMPTY_VALUE", ""), 400, "BAD_REQUEST", "secret cannot be empty");
    await expectError(add(ann, "LONG_VALUE", "v".repeat(4097)), 400, "BAD_REQUEST", "secret is too long (limit: 4096 characters)");
    await expectError(add(ann, "LONG_NOTE", "v", "n".repeat(201)), 400, "BAD_REQUEST", "note is too long (limit: 200 characters)");
    await expectError(ann.post("/ext/secrets", { name: "NO_VALUE" }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'secret' argument");
    const names = (await ok(ann.get("/ext/secrets"))).secrets.map((x: any) => x.name);
    expect(names.filter((n: string) => ["EMPTY_VALUE", "LONG_VALUE", "LONG_NOTE", "NO_VALUE"].includes(n))).toEqual([]);
    expect((await ok(add(ann, "ONE_CHAR", "x"))).secret.hint).toBe("");
    expect((await ok(add(ann, "MAX_VALUE", "v".repeat(4095) + "Z", "n".repeat(200)))).secret).toMatchObject({ hint: "vvvZ", note: "n".repeat(200) });
    // Characters, not bytes: 4096 emoji fit.
    await ok(add(ann, "EMOJI_VALUE", "🔑".repeat(4096)));
  });

  test("hint: the last four characters only from 16 characters on", async () => {
    expect((await ok(add(ann, "HINT_15", "abcdefghijk1234"))).secret.hint).toBe("");
    expect((await ok(add(ann, "HINT_16", "abcdefghijkl1234"))).secret.hint).toBe("1234");
    expect((await ok(add(ann, "HINT_EMOJI", "x".repeat(12) + "🔑ab🔒"))).secret.hint).toBe("🔑ab🔒");
  });

  test("guests and bots are refused", async () => {
    await expectError(add(guest, "GUEST_ONE"), 400, "BAD_REQUEST", "Not allowed for guest users");
    await expectError(add(bot, "BOT_ONE"), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.");
    await expectError(guest.get("/ext/secrets"), 400, "BAD_REQUEST", "Not allowed for guest users");
    await expectError(bot.get("/ext/secrets"), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.");
  });
});

describe("changing and deleting", () => {
  test("a new value sets replaced_by and date_replaced; administrators or the one who added it", async () => {
    const { secret } = await ok(add(ann, "ROTATED", "first-value-0000"));
    const q = await ok(bob.post("/register", { event_types: ["ext_secret"] }));
    await expectError(bob.patch("/ext/secrets/ROTATED", { secret: "x" }), 400, "BAD_REQUEST", "Insufficient permission");
    const byAdmin = await ok(admin.patch("/ext/secrets/ROTATED", { secret: "second-value-9876" }));
    expect(byAdmin.secret).toEqual({ ...secret, hint: "9876", replaced_by: admin.userId, date_replaced: expect.any(Number) });
    const byAnn = await ok(ann.patch("/ext/secrets/ROTATED", { note: "rotated monthly" }));
    expect(byAnn.secret).toEqual({ ...byAdmin.secret, note: "rotated monthly" });
    expect((await events(bob, q)).map((e: any) => [e.op, e.secret.hint, e.secret.note])).toEqual([
      ["update", "9876", ""],
      ["update", "9876", "rotated monthly"],
    ]);
    await expectError(ann.patch("/ext/secrets/ROTATED", {}), 400, "BAD_REQUEST", "Nothing to change");
    await expectError(ann.patch("/ext/secrets/ROTATED", { secret: "" }), 400, "BAD_REQUEST", "secret cannot be empty");
    await expectError(ann.patch("/ext/secrets/NOPE", { secret: "x" }), 404, "BAD_REQUEST", "No secret named 'NOPE'");
  });

  test("delete: administrators or the one who added it; members hear of it", async () => {
    await ok(add(ann, "DOOMED"));
    await ok(add(ann, "DOOMED_TOO"));
    const q = await ok(bob.post("/register", { event_types: ["ext_secret"] }));
    await expectError(bob.delete("/ext/secrets/DOOMED"), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(guest.delete("/ext/secrets/DOOMED"), 400, "BAD_REQUEST", "Not allowed for guest users");
    await ok(ann.delete("/ext/secrets/DOOMED"));
    await ok(admin.delete("/ext/secrets/DOOMED_TOO"));
    await expectError(ann.delete("/ext/secrets/DOOMED"), 404, "BAD_REQUEST", "No secret named 'DOOMED'");
    expect(await events(bob, q)).toEqual([
      { type: "ext_secret", op: "remove", name: "DOOMED", id: 0 },
      { type: "ext_secret", op: "remove", name: "DOOMED_TOO", id: 1 },
    ]);
    // The name is free again.
    await ok(add(bob, "DOOMED"));
  });
});

describe("at rest", () => {
  // Reads the SQLite file's bytes (on PostgreSQL the same rows are written by the same store code).
  test.skipIf(sqliteFileOnly)("the database files hold no value; the key file is the owner's alone", async () => {
    const value = "at-rest-" + crypto.randomUUID();
    const note = "note-" + crypto.randomUUID();
    await ok(add(ann, "AT_REST", value, note));
    await ok(ann.patch("/ext/secrets/AT_REST", { secret: value + "-2" }));
    const files = ["confab.db", "confab.db-wal"].map((f) => join(s.dataDir, f)).filter((f) => statSync(f, { throwIfNoEntry: false }));
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    // The note is stored in the clear, so these are the bytes the rows were written to.
    expect(bytes.includes(Buffer.from(note))).toBe(true);
    expect(bytes.includes(Buffer.from(value))).toBe(false);
    expect(bytes.includes(Buffer.from(value, "utf16le"))).toBe(false);
    expect(statSync(join(s.dataDir, "secrets.key")).mode & 0o777).toBe(0o600);
  });
});
