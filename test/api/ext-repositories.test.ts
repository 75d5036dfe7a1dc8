// Repositories kept by this server: creation over HTTP by administrators, content from a directory or
// another repository (what `confab repo import` runs), and what GET shows of them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { importIntoRepository, repositoryDir } from "../../src/actions/repositories";
import { findRepository } from "../../src/store/repositories";
import { defaultRealm } from "../../src/http/realm";
import { git } from "../../src/lib/git";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let ann: Client;
let guest: Client;
const scratch = mkdtempSync(join(tmpdir(), "confab-repos-"));

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200 });
  ann = await s.newUser();
  guest = await s.newUser({ role: 600 });
});
afterAll(async () => {
  await s.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, "tree-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const importDir = async (id: number, dir: string) => importIntoRepository(s.app, await defaultRealm(s.app), null, id, dir);

describe("repositories", () => {
  test("administrators create them; members and guests may not; names are checked", async () => {
    const { repository } = await ok(admin.post("/ext/repositories", { name: "plugins", description: "Our plugins" }));
    expect(repository).toEqual({
      id: expect.any(Number),
      name: "plugins",
      description: "Our plugins",
      head: "",
      created_by: admin.userId,
      date_created: expect.any(Number),
      date_updated: null,
    });
    await expectError(ann.post("/ext/repositories", { name: "mine" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(admin.post("/ext/repositories", { name: "Plugins" }), 400, "BAD_REQUEST", "A repository named 'Plugins' already exists");
    const rule = "Repository names use letters, digits, '.', '_' and '-', start with a letter or digit, and do not end in '.git'";
    for (const name of ["-x", "a/b", "x.git", "a..b", "sp ace", "../up"])
      await expectError(admin.post("/ext/repositories", { name }), 400, "BAD_REQUEST", rule);
    await expectError(admin.post("/ext/repositories", { name: "" }), 400, "BAD_REQUEST", "Repository name cannot be empty");
    await expectError(admin.post("/ext/repositories", { name: "r".repeat(101) }), 400, "BAD_REQUEST", "Repository name is too long (limit: 100 characters)");
    expect((await ok(ann.get("/ext/repositories"))).repositories).toEqual([repository]);
    await expectError(guest.get("/ext/repositories"), 400, "BAD_REQUEST", "Not allowed for guest users");
    const empty = await ok(ann.get(`/ext/repositories/${repository.id}`));
    expect(empty).toMatchObject({ repository, branches: [], plugin_paths: [] });
    await expectError(ann.get("/ext/repositories/9999"), 404, "BAD_REQUEST", "Repository does not exist");
  });

  test("a directory import is the next commit of main; an unchanged one makes none", async () => {
    const { repository } = await ok(admin.post("/ext/repositories", { name: "from-dir" }));
    const dir = tree({ "manifest.json": "{}", "tools/ci/manifest.json": "{}", "tools/ci/run.sh": "echo hi\n", "README.md": "hello\n" });
    const first = (await importDir(repository.id, dir)).repository;
    expect(first.head).toMatch(/^[0-9a-f]{40}$/);
    const got = await ok(ann.get(`/ext/repositories/${repository.id}`));
    expect(got.branches).toEqual([{ name: "main", sha: first.head }]);
    expect(got.plugin_paths.sort()).toEqual(["", "tools/ci"]);
    expect(got.repository).toMatchObject({ head: first.head, date_updated: expect.any(Number) });
    expect((await importDir(repository.id, dir)).repository.head).toBe(first.head);
    writeFileSync(join(dir, "README.md"), "changed\n");
    const second = (await importDir(repository.id, dir)).repository.head;
    expect(second).not.toBe(first.head);
    const parent = (await git(["--git-dir", repositoryDir(s.app, (await findRepository(s.app.db, repository.id))!), "rev-parse", `${second}^`])).trim();
    expect(parent).toBe(first.head);
  });

  test("a git repository import brings its branches and tags", async () => {
    const src = tree({ "manifest.json": "{}" });
    const env = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@t" };
    await git(["init", "--quiet", "--initial-branch=trunk"], { cwd: src });
    await git(["add", "."], { cwd: src });
    await git(["commit", "--quiet", "-m", "one"], { cwd: src, env });
    await git(["branch", "feature"], { cwd: src });
    await git(["tag", "v1"], { cwd: src });
    const sha = (await git(["rev-parse", "HEAD"], { cwd: src })).trim();
    const { repository } = await ok(admin.post("/ext/repositories", { name: "from-git" }));
    expect((await importDir(repository.id, src)).repository.head).toBe(sha);
    const got = await ok(ann.get(`/ext/repositories/${repository.id}`));
    expect(got.branches).toEqual([
      { name: "feature", sha },
      { name: "trunk", sha },
    ]);
    expect(got.plugin_paths).toEqual([""]);
    await expect(importDir(repository.id, join(scratch, "missing"))).rejects.toThrow("is not a directory");
  });
});
