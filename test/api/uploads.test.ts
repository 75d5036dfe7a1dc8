// POST /user_uploads, the files at /user_uploads/<path_id> with Zulip's access rule, temporary URLs,
// GET/DELETE /attachments, message links kept on send/edit/delete, quota and size limits, cleanup.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deleteUnreferencedUploads, uploadFilePath } from "../../src/actions/attachments";
import { createRealm } from "../../src/actions/realms";
import { applyRetention } from "../../src/actions/retention";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { sqliteFileOnly, startServer, type TestServer } from "../helpers/server";
import { run, tempDir } from "../cli/run";

let s: TestServer;
let ann: Client;
let bob: Client;
let general: number;

beforeAll(async () => {
  s = await startServer({ env: { CONFAB_LIMITS_MAX_FILE_UPLOAD_MIB: "1" } });
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  general = (await ok(ann.post("/channels/create", { name: "general", subscribers: [ann.userId, bob.userId] }))).id;
});
afterAll(() => s.stop());

const upload = (c: Client, name: string, body: string | Uint8Array = "hello", type = "") =>
  c.post("/user_uploads", {}, { files: [new File([body], name, { type })] });

/** A GET of a file URL (outside /api/v1), as the client's credentials allow (or none). */
const fetchFile = (c: Client | null, url: string, headers: Record<string, string> = {}) =>
  fetch(s.url + url, { headers: c?.auth ? { Authorization: c.auth, ...headers } : headers });

/** An event queue for attachment events, and what it has so far. */
const attachmentQueue = (c: Client) => ok(c.post("/register", { event_types: ["attachment"] }));

const send = (c: Client, to: number, content: string) => ok(c.post("/messages", { type: "stream", to, topic: "files", content }));

describe("uploading", () => {
  test("one file: url, uri and filename as Zulip answers; the uploader hears an attachment event", async () => {
    const q = await attachmentQueue(ann);
    const r = await ok(upload(ann, "quarterly report.txt", "numbers", "text/plain"));
    expect(r.url).toMatch(/^\/user_uploads\/\d+\/[A-Za-z0-9]{24}\/quarterly-report\.txt$/);
    expect(r.uri).toBe(r.url);
    expect(r.filename).toBe("quarterly report.txt");
    const [ev] = await drain(ann, q);
    expect(ev).toMatchObject({ type: "attachment", op: "add", attachment: { name: "quarterly report.txt", size: 7, messages: [] } });
    expect(ev.attachment.path_id).toBe(r.url.replace("/user_uploads/", ""));
    expect(ev.upload_space_used).toBeGreaterThanOrEqual(7);
  });

  test("no file, two files, a file over max_file_upload_size_mib: Zulip's errors, nothing stored", async () => {
    const before = (await ok(ann.get("/attachments"))).attachments.length;
    await expectError(ann.post("/user_uploads", {}, { files: [] }), 400, "BAD_REQUEST", "You must specify a file to upload");
    await expectError(
      ann.post("/user_uploads", {}, { files: [new File(["a"], "a.txt"), new File(["b"], "b.txt")] }),
      400,
      "BAD_REQUEST",
      "You may only upload one file at a time",
    );
    const reg = await ok(ann.post("/register", { fetch_event_types: ["realm"] }));
    expect(reg.max_file_upload_size_mib).toBe(1);
    await expectError(upload(ann, "big.bin", new Uint8Array(1024 * 1024 + 1)), 400, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 1 MiB");
    expect((await ok(ann.get("/attachments"))).attachments.length).toBe(before);
  });

  test("the organization's upload quota (a realm setting, owners only) refuses uploads beyond it", async () => {
    const used = (await ok(ann.get("/attachments"))).upload_space_used;
    const admin = await s.newUser({ role: 200 });
    await expectError(admin.patch("/realm", { upload_quota_mib: 0 }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    await ok(s.owner.patch("/realm", { upload_quota_mib: 0 }));
    expect((await ok(ann.post("/register", { fetch_event_types: ["realm"] }))).realm_upload_quota_mib).toBe(0);
    await expectError(upload(ann, "one.txt", "x"), 400, "BAD_REQUEST", "Upload would exceed your organization's upload quota.");
    await ok(s.owner.patch("/realm", { upload_quota_mib: 1 }));
    await ok(upload(ann, "fits.txt", "x"));
    await expectError(
      upload(ann, "too-much.bin", new Uint8Array(1024 * 1024 - used)),
      400,
      "BAD_REQUEST",
      "Upload would exceed your organization's upload quota.",
    );
    await ok(s.owner.patch("/realm", { upload_quota_mib: "unlimited" }));
    await ok(upload(ann, "again.txt", "x"));
  });
});

describe("serving", () => {
  test("the uploader reads it; others only once a message they can read links it", async () => {
    const { url } = await ok(upload(ann, "notes.txt", "secret notes", "text/plain"));
    const mine = await fetchFile(ann, url);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe("secret notes");
    expect(mine.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(mine.headers.get("content-disposition")).toBe('inline; filename="notes.txt"');
    expect(mine.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetchFile(bob, url)).status).toBe(403);
    expect((await fetchFile(null, url)).status).toBe(403);

    // A private channel Bob is not in: still not his to read.
    const hidden = (await ok(ann.post("/channels/create", { name: "hidden", subscribers: [ann.userId], invite_only: true }))).id;
    await send(ann, hidden, `[notes](${url})`);
    expect((await fetchFile(bob, url)).status).toBe(403);
    // Bob cannot widen access by linking it himself either.
    await send(bob, general, `[stolen](${url})`);
    expect((await fetchFile(s.owner, url)).status).toBe(403);

    await send(ann, general, `[notes](${url})`);
    expect((await fetchFile(bob, url)).status).toBe(200);
    // Anyone in the organization may read the history of a public channel.
    const carl = await s.newUser();
    expect((await fetchFile(carl, url)).status).toBe(200);
    // /download/ forces a download.
    expect((await fetchFile(bob, url.replace("/user_uploads/", "/user_uploads/download/"))).headers.get("content-disposition")).toBe(
      'attachment; filename="notes.txt"',
    );
  });

  test("HTML, SVG and XML are downloads, never shown in the browser; unknown paths are 404", async () => {
    for (const [name, type] of [
      ["page.html", "text/html"],
      ["logo.svg", "image/svg+xml"],
      ["feed.xml", ""],
    ] as const) {
      const { url } = await ok(upload(ann, name, "<svg onload=alert(1)>", type));
      const res = await fetchFile(ann, url);
      expect(res.headers.get("content-disposition")).toStartWith("attachment;");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const img = await ok(upload(ann, "pic.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47])));
    expect((await fetchFile(ann, img.url)).headers.get("content-type")).toBe("image/png");
    expect((await fetchFile(ann, img.url)).headers.get("content-disposition")).toStartWith("inline;");
    expect((await fetchFile(ann, img.url.replace(/\/[^/]+$/, "/other.png"))).status).toBe(404);
    expect((await fetchFile(ann, "/user_uploads/1/nothing/here.txt")).status).toBe(404);
  });

  test("a temporary URL serves the file without credentials (the mobile app's download path)", async () => {
    const { url } = await ok(upload(ann, "für dich.pdf", "%PDF-1.4", "application/pdf"));
    const r = await ok(ann.get(url)); // GET /api/v1/user_uploads/{realm_id_str}/{filename}
    expect(r.url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/f%C3%BCr-dich\.pdf$/);
    const res = await fetchFile(null, r.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe("inline; filename*=utf-8''f%C3%BCr-dich.pdf");
    expect(await res.text()).toBe("%PDF-1.4");
    // A forged token, or a real one with another file name, is refused.
    expect((await fetchFile(null, r.url.replace(/temporary\/[^/]+\//, "temporary/AAAA.BBBB/"))).status).toBe(404);
    expect((await fetchFile(null, r.url.replace(/[^/]+$/, "other.pdf"))).status).toBe(404);
    // Only who may read the file gets one.
    await expectError(bob.get(url), 403, "BAD_REQUEST", "You are not authorized to view this file.");
    await expectError(bob.get("/user_uploads/1/no/such.pdf"), 404, "BAD_REQUEST", "File not found.");
  });

  test("a file of another organization is not found there, whoever asks", async () => {
    const g = await startServer({ env: { CONFAB_EXTERNAL_URL: "http://confab.test" } });
    try {
      const host = `acme.confab.test:${new URL(g.url).port}`;
      const acme = await createRealm(g.app, { stringId: "acme", name: "Acme", ownerEmail: "boss@acme.test", ownerName: "Boss", ownerPassword: "acme-secret" });
      const boss = g.client("boss@acme.test", acme.owner.apiKey, acme.owner.id);
      const { url } = await ok(g.owner.post("/user_uploads", {}, { files: [new File(["ours"], "ours.txt")] }));
      const res = await fetch(g.url + url, { headers: { Authorization: boss.auth!, Host: host } });
      expect(res.status).toBe(404);
      await expectError(boss.get(url, {}, { headers: { Host: host } }), 404, "BAD_REQUEST", "File not found.");
    } finally {
      await g.stop();
    }
  });
});

describe("attachments", () => {
  test("GET /attachments lists one's uploads with the messages linking them; edits report detached uploads", async () => {
    const { url } = await ok(upload(ann, "plan.txt", "plan"));
    const q = await attachmentQueue(ann);
    const { id } = await send(ann, general, `see [plan](${url})`);
    const [ev] = await drain(ann, q);
    expect(ev).toMatchObject({ type: "attachment", op: "update", attachment: { name: "plan.txt" } });
    expect(ev.attachment.messages.map((m: any) => m.id)).toEqual([id]);
    const listed = (await ok(ann.get("/attachments"))).attachments.find((a: any) => a.path_id === url.slice(14));
    expect(listed).toMatchObject({ name: "plan.txt", size: 4, messages: [{ id }] });
    expect(listed.messages[0].date_sent).toBeGreaterThan(1e12); // milliseconds, as Zulip sends
    expect((await ok(bob.get("/attachments"))).attachments.some((a: any) => a.id === listed.id)).toBe(false);

    const edited = await ok(ann.patch(`/messages/${id}`, { content: "never mind" }));
    expect(edited.detached_uploads).toMatchObject([{ id: listed.id, name: "plan.txt", messages: [] }]);
    expect((await fetchFile(bob, url)).status).toBe(403);
    const back = await ok(ann.patch(`/messages/${id}`, { content: `[plan](${url}) after all` }));
    expect(back.detached_uploads).toEqual([]);
    expect((await fetchFile(bob, url)).status).toBe(200);
  });

  test("DELETE /attachments/{id}: only the uploader; the file is gone, the message stays", async () => {
    const { url } = await ok(upload(ann, "old.txt", "old"));
    const { id: messageId } = await send(ann, general, `[old](${url})`);
    const a = (await ok(ann.get("/attachments"))).attachments.find((x: any) => x.path_id === url.slice(14));
    await expectError(bob.delete(`/attachments/${a.id}`), 400, "BAD_REQUEST", "Invalid attachment");
    await expectError(ann.delete("/attachments/999999"), 400, "BAD_REQUEST", "Invalid attachment");
    const q = await attachmentQueue(ann);
    await ok(ann.delete(`/attachments/${a.id}`));
    expect((await drain(ann, q))[0]).toMatchObject({ type: "attachment", op: "remove", attachment: { id: a.id } });
    expect((await fetchFile(ann, url)).status).toBe(404);
    expect(existsSync(uploadFilePath(s.app, a.path_id))).toBe(false);
    expect((await ok(ann.get(`/messages/${messageId}`))).message.id).toBe(messageId);
  });

  test("files no message links are deleted after the grace period: never sent, last message deleted, or expired", async () => {
    const never = await ok(upload(ann, "never.txt", "n"));
    const deleted = await ok(upload(ann, "deleted.txt", "d"));
    const kept = await ok(upload(ann, "kept.txt", "k"));
    const { id } = await send(ann, general, `[d](${deleted.url}) [k](${kept.url})`);
    await send(ann, general, `[k](${kept.url}) again`);
    await ok(s.owner.delete(`/messages/${id}`));
    const grace = s.app.config.uploads.unreferencedGraceDays * 86400;
    // Within the grace period nothing goes.
    await deleteUnreferencedUploads(s.app, s.app.now() + grace - 60);
    expect((await fetchFile(ann, never.url)).status).toBe(200);
    await deleteUnreferencedUploads(s.app, s.app.now() + grace + 1);
    for (const gone of [never, deleted]) expect((await fetchFile(ann, gone.url)).status).toBe(404);
    expect(existsSync(uploadFilePath(s.app, never.url.slice(14)))).toBe(false);
    expect((await fetchFile(bob, kept.url)).status).toBe(200);

    // Retention deletes the last message linking a file; the file follows after the grace period.
    const g = await startServer();
    try {
      const u = await ok(g.owner.post("/user_uploads", {}, { files: [new File(["r"], "r.txt")] }));
      const c = (await ok(g.owner.post("/channels/create", { name: "short", subscribers: [g.owner.userId!] }))).id;
      await ok(g.owner.post("/messages", { type: "stream", to: c, topic: "t", content: `[r](${u.url})` }));
      await ok(g.owner.patch("/realm", { message_retention_days: 1 }));
      const later = g.app.now() + 2 * 86400;
      expect(await applyRetention(g.app, later)).toBeGreaterThanOrEqual(1);
      await deleteUnreferencedUploads(g.app, later + g.app.config.uploads.unreferencedGraceDays * 86400 + 1);
      expect((await fetch(g.url + u.url, { headers: { Authorization: g.owner.auth! } })).status).toBe(404);
    } finally {
      await g.stop();
    }
  });
});

describe("backup", () => {
  // The SQLite file's backup; on PostgreSQL confab backup refuses (test/cli/postgres-storage.test.ts).
  test.skipIf(sqliteFileOnly)("confab backup copies the uploaded files beside the database; restore brings both back", async () => {
    const { url } = await ok(upload(ann, "keep me.txt", "precious"));
    const tmp = tempDir();
    try {
      const file = join(tmp.path, "backup.db");
      const b = await run(["backup", file, "--data-dir", s.dataDir]);
      expect(b.code).toBe(0);
      expect(b.stdout).toMatch(
        new RegExp(`^backup written to ${file} and verified: .*, \\d+ uploaded file\\(s\\) \\(\\d+ KiB\\) checked in ${file}\\.files\\n$`),
      );
      const pathId = url.slice("/user_uploads/".length);
      expect(readFileSync(join(`${file}.files`, "uploads", ...pathId.split("/")), "utf8")).toBe("precious");
      // Into an empty data directory: the database and the files.
      const restored = join(tmp.path, "restored");
      const r = await run(["restore", file, "--data-dir", restored]);
      expect(r.code).toBe(0);
      expect(readFileSync(join(restored, "uploads", ...pathId.split("/")), "utf8")).toBe("precious");
    } finally {
      tmp.remove();
    }
  });
});
