// Data exports over the API: POST/GET /export/realm, the consents, the realm_export events as the
// background job moves on, the archive at export_url (administrators only) and what each type holds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { expectError, ok, type Client } from "../helpers/client";
import { eventsUntil } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let ann: Client;
let bob: Client;
const tmp = mkdtempSync(join(tmpdir(), "confab-export-test-"));

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  await ok(
    s.owner.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "lobby" }]), principals: JSON.stringify([ann.userId, bob.userId]) }),
  );
  await ok(
    s.owner.post("/users/me/subscriptions", {
      subscriptions: JSON.stringify([{ name: "secret" }]),
      principals: JSON.stringify([ann.userId]),
      invite_only: true,
    }),
  );
  await ok(ann.post("/messages", { type: "stream", to: "lobby", topic: "hello", content: "public words" }));
  const up = await ok(ann.post("/user_uploads", {}, { files: [new File(["file words"], "words.txt", { type: "text/plain" })] }));
  await ok(ann.post("/messages", { type: "stream", to: "lobby", topic: "hello", content: `[words](${up.url})` }));
  await ok(ann.post("/messages", { type: "stream", to: "secret", topic: "hush", content: "private words" }));
  await ok(bob.post("/messages", { type: "direct", to: JSON.stringify([ann.userId]), content: "a direct word" }));
}, 30_000);
afterAll(async () => {
  await s?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** The archive at an export URL, unpacked, as the named JSON files. */
async function download(c: Client, url: string) {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, s.url), {
    headers: { Authorization: "Basic " + Buffer.from(`${c.email}:${c.apiKey}`).toString("base64"), Host: new URL(s.url).host },
  });
  return res;
}

async function unpack(res: Response) {
  const dir = mkdtempSync(join(tmp, "x"));
  writeFileSync(join(dir, "a.tar.gz"), new Uint8Array(await res.arrayBuffer()));
  const names: string[] = [];
  await tar.x({ file: join(dir, "a.tar.gz"), cwd: dir, onentry: (e) => names.push(e.path) });
  const root = join(dir, names[0]!.split("/")[0]!);
  return { names, root, json: (n: string) => JSON.parse(readFileSync(join(root, n), "utf8")) };
}

describe("realm exports", () => {
  test("non-administrators are refused with Zulip's error, and nothing is created", async () => {
    await expectError(ann.post("/export/realm"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(ann.get("/export/realm"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(ann.get("/export/realm/consents"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expect((await ok(admin.get("/export/realm"))).exports).toEqual([]);
  });

  test("a bad export_type is refused", async () => {
    await expectError(admin.post("/export/realm", { export_type: 3 }), 400, "BAD_REQUEST", "Invalid export_type");
  });

  test("a public export: pending at once, then done in the background, announced to administrators, downloadable by them only", async () => {
    const q = await ok(admin.post("/register", { event_types: JSON.stringify(["realm_export"]) }));
    const qOwner = await ok(s.owner.post("/register", { event_types: JSON.stringify(["realm_export"]) }));
    const { id } = await ok(admin.post("/export/realm"));
    const events = await eventsUntil(admin, q, "the export to finish", (es) => es.some((e) => e.exports?.find((x: any) => x.id === id && !x.pending)), 20_000);
    const first = events[0].exports.find((x: any) => x.id === id);
    expect(first).toMatchObject({
      id,
      acting_user_id: admin.userId,
      export_type: 1,
      pending: true,
      export_url: null,
      failed_timestamp: null,
      deleted_timestamp: null,
    });
    const done = events.at(-1).exports.find((x: any) => x.id === id);
    expect(done).toMatchObject({ pending: false, failed_timestamp: null, export_type: 1 });
    expect(done.export_url).toMatch(new RegExp(`/user_avatars/exports/\\d+/[^/]+/zulip-export-[a-z0-9]+\\.tar\\.gz$`));
    // The owner, another administrator, hears of it too; the list agrees with the events.
    await eventsUntil(s.owner, qOwner, "the export to finish", (es) => es.some((e) => e.exports?.find((x: any) => x.id === id && !x.pending)), 20_000);
    expect((await ok(admin.get("/export/realm"))).exports).toEqual([done]);

    // A member's credentials, or none, get nothing; an administrator gets the archive.
    expect((await download(ann, done.export_url)).status).toBe(400);
    expect((await fetch(done.export_url.replace(/^https?:\/\/[^/]+/, s.url))).status).toBe(401);
    const res = await download(admin, done.export_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toStartWith("attachment");
    const a = await unpack(res);
    expect(a.names.map((n) => n.split("/").slice(1).join("/"))).toEqual(
      expect.arrayContaining(["realm.json", "messages-000001.json", "attachment.json", "uploads/records.json"]),
    );
    const realm = a.json("realm.json");
    expect(realm.zerver_stream.map((c: any) => c.name)).toEqual(["lobby"]);
    const contents = a.json("messages-000001.json").zerver_message.map((m: any) => m.content);
    expect(contents).toContain("public words");
    expect(contents).not.toContain("private words");
    expect(contents).not.toContain("a direct word");
    // The upload a public message links: its record, its attachment row and its bytes at uploads/<path_id>.
    const [att] = a.json("attachment.json").zerver_attachment;
    expect(att).toMatchObject({ file_name: "words.txt", owner: ann.userId, size: 10 });
    expect(a.json("uploads/records.json")).toEqual([expect.objectContaining({ path: att.path_id, user_profile_id: ann.userId })]);
    expect(a.names.some((n) => n.endsWith(`uploads/${att.path_id}`))).toBe(true);
    expect(readFileSync(join(a.root, "uploads", att.path_id), "utf8")).toBe("file words");
  }, 30_000);

  test("consents: listed per user, changed with an event to administrators; a standard export takes consenting users' private messages", async () => {
    const before = (await ok(admin.get("/export/realm/consents"))).export_consents;
    expect(before).toContainEqual({ user_id: ann.userId, consented: false });
    const q = await ok(admin.post("/register", { event_types: JSON.stringify(["realm_export_consent", "realm_export"]) }));
    await ok(ann.patch("/settings", { allow_private_data_export: true }));
    await eventsUntil(
      admin,
      q,
      "the consent event",
      (es) => es.some((e) => e.type === "realm_export_consent" && e.user_id === ann.userId && e.consented === true),
      20_000,
    );
    expect((await ok(admin.get("/export/realm/consents"))).export_consents).toContainEqual({ user_id: ann.userId, consented: true });

    const { id } = await ok(admin.post("/export/realm", { export_type: 2 }));
    const events = await eventsUntil(admin, q, "the export to finish", (es) => es.some((e) => e.exports?.find((x: any) => x.id === id && !x.pending)), 20_000);
    const done = events.at(-1).exports.find((x: any) => x.id === id);
    const a = await unpack(await download(admin, done.export_url));
    const contents = a.json("messages-000001.json").zerver_message.map((m: any) => m.content);
    expect(contents).toEqual(expect.arrayContaining(["public words", "private words"]));
    expect(contents).not.toContain("a direct word"); // Bob did not consent
  }, 30_000);

  test("an export that cannot be written is reported failed, with no URL", async () => {
    const dir = join(s.dataDir, "exports");
    renameSync(dir, `${dir}.away`);
    writeFileSync(dir, "in the way"); // the archive's folder cannot be made
    try {
      const q = await ok(admin.post("/register", { event_types: JSON.stringify(["realm_export"]) }));
      const { id } = await ok(admin.post("/export/realm"));
      const events = await eventsUntil(
        admin,
        q,
        "the export to finish",
        (es) => es.some((e) => e.exports?.find((x: any) => x.id === id && !x.pending)),
        20_000,
      );
      const failed = events.at(-1).exports.find((x: any) => x.id === id);
      expect(failed).toMatchObject({ pending: false, export_url: null, deleted_timestamp: null });
      expect(failed.failed_timestamp).toBeGreaterThan(failed.export_time);
    } finally {
      rmSync(dir);
      renameSync(`${dir}.away`, dir);
    }
  }, 30_000);
});
