// The one build of the suite: package.json's build command, writing to a temporary directory, then the
// executable copied ALONE into an empty directory (no node_modules, no source, no migrations) and run.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json";
import { FEATURE_LEVEL, SERVICE_VERSION } from "../../src/version";
import { api, REPO, run, serve, tempDir } from "./run";

const tmp = tempDir("confab-exe-");
afterAll(() => tmp.remove());

test("npm run build makes an executable that runs on its own: version, --help, serve + users/me", async () => {
  const built = join(tmp.path, "build", "confab");
  const command = pkg.scripts.build.replace(/^bun /, "").replace("dist/confab", built).split(" ");
  const b = Bun.spawnSync([process.execPath, ...command], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  expect({ code: b.exitCode, stderr: b.stderr.toString() }).toEqual({ code: 0, stderr: expect.any(String) });

  const alone = join(tmp.path, "alone");
  mkdirSync(alone);
  copyFileSync(built, join(alone, "confab"));
  chmodSync(join(alone, "confab"), 0o755);
  expect(readdirSync(alone)).toEqual(["confab"]);
  const exe = ["./confab"];

  expect(await run(["version"], { program: exe, cwd: alone })).toEqual({
    code: 0,
    stdout: `confab ${SERVICE_VERSION} (feature level ${FEATURE_LEVEL})\n`,
    stderr: "",
  });
  const help = await run(["--help"], { program: exe, cwd: alone });
  expect(help.code).toBe(0);
  for (const c of ["serve", "realm", "user", "migrate", "backup", "restore", "version"]) expect(help.stdout).toContain(`  ${c} `);

  const s = await serve("./data", { program: exe, cwd: alone });
  try {
    const email = /owner email: +(\S+)/.exec(s.stdout())![1]!;
    const key = /API key: +(\S+)/.exec(s.stdout())![1]!;
    const me = await api(s.url, "/users/me", { auth: [email, key] });
    expect(me).toMatchObject({ status: 200, body: { result: "success", email, role: 100, is_owner: true } });
    // Rendering uses data embedded at build time (the emoji table, KaTeX): nothing is read from disk.
    const rendered = await api(s.url, "/messages/render", { auth: [email, key], form: { content: ":smile: $$x^2$$" } });
    expect(rendered.status).toBe(200);
    expect(rendered.body.rendered).toContain('class="emoji emoji-1f642"'); // Zulip's :smile:
    expect(rendered.body.rendered).toContain('class="katex"');
    const settings = await api(s.url, "/server_settings");
    expect(settings.body).toMatchObject({ zulip_feature_level: FEATURE_LEVEL, zulip_version: SERVICE_VERSION });
  } finally {
    expect(await s.stop()).toBe(0);
  }
  expect(readdirSync(join(alone, "data")).sort()).toContain("confab.db");
}, 120_000);
