// The CLI, run as a subprocess on temporary data directories: every command, its --help, its output
// and, for each failure, one line on stderr and a non-zero exit (2 for a bad config).
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURE_LEVEL, SERVICE_VERSION } from "../../src/version";
import { api, failure, run, serve, tempDir } from "./run";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;
/** A fresh, empty data directory. */
const dataDir = () => join(tmp.path, `data${++n}`);

const commandsIn = (help: string) => [...help.slice(help.indexOf("Commands:")).matchAll(/^  ([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== "help");

describe("help and version", () => {
  test("version", async () => {
    const r = await run(["version"]);
    expect(r).toEqual({ code: 0, stdout: `confab ${SERVICE_VERSION} (feature level ${FEATURE_LEVEL})\n`, stderr: "" });
  });

  test("--help lists the commands, and every command and subcommand has --help with --config and --data-dir", async () => {
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    const commands = commandsIn(top.stdout);
    expect(commands).toEqual(expect.arrayContaining(["serve", "realm", "user", "migrate", "backup", "restore", "version"]));
    const leaves: string[][] = [];
    for (const [c, h] of await Promise.all(commands.map(async (c) => [c, await run([c, "--help"])] as const))) {
      expect(h.code).toBe(0);
      expect(h.stdout).toStartWith(`Usage: confab ${c} `);
      const subs = commandsIn(h.stdout);
      if (subs.length) for (const s of subs) leaves.push([c, s]);
      else leaves.push([c]);
    }
    expect(leaves).toEqual(
      expect.arrayContaining([
        ["realm", "create"],
        ["realm", "list"],
        ["realm", "deactivate"],
        ["realm", "reactivate"],
        ["user", "create"],
        ["user", "list"],
        ["user", "api-key"],
        ["user", "set-password"],
        ["user", "deactivate"],
      ]),
    );
    const helps = await Promise.all(leaves.map((leaf) => run([...leaf, "--help"])));
    for (const [i, leaf] of leaves.entries()) {
      const h = helps[i]!;
      expect({ leaf, code: h.code }).toEqual({ leaf, code: 0 });
      expect(h.stdout).toStartWith(`Usage: confab ${leaf.join(" ")} `);
      expect(h.stdout).toContain("--config <path>");
      expect(h.stdout).toContain("--data-dir <dir>");
    }
    const serveHelp = await run(["serve", "--help"]);
    expect(serveHelp.stdout).toContain("--host <host>");
    expect(serveHelp.stdout).toContain("--port <port>");
  }, 60_000);

  test("usage errors: one line and exit 1", async () => {
    expect(failure(await run(["frobnicate"]))).toEqual({ code: 1, lines: ["confab: unknown command 'frobnicate' (see --help)"], stdout: "" });
    expect(failure(await run(["user", "create", "a@example.com"]))).toEqual({
      code: 1,
      lines: ["confab: required option '--name <full_name>' not specified (see --help)"],
      stdout: "",
    });
    expect(failure(await run(["version", "--colour"]))).toEqual({ code: 1, lines: ["confab: unknown option '--colour' (see --help)"], stdout: "" });
  });
});

describe("bad config: one line naming the key, exit 2", () => {
  test("an unknown key in the file, a bad value, an unknown CONFAB_* variable, a bad flag", async () => {
    const bad = join(tmp.path, "bad.yaml");
    writeFileSync(bad, "listen:\n  port: 9991\nlisten_port: 1\n");
    expect(failure(await run(["version", "--config", bad]))).toEqual({ code: 2, lines: [`confab: config: unknown key listen_port (${bad})`], stdout: "" });

    const badValue = join(tmp.path, "bad-value.yaml");
    writeFileSync(badValue, "storage:\n  synchronous: sometimes\n");
    expect(failure(await run(["user", "list", "--config", badValue]))).toEqual({
      code: 2,
      lines: [`confab: config: storage.synchronous (${badValue}): must be one of full, normal`],
      stdout: "",
    });

    expect(failure(await run(["serve", "--data-dir", dataDir()], { env: { CONFAB_LISTEN_PROT: "80" } }))).toEqual({
      code: 2,
      lines: ["confab: config: unknown environment variable CONFAB_LISTEN_PROT"],
      stdout: "",
    });
    expect(failure(await run(["serve", "--data-dir", dataDir(), "--port", "http"]))).toEqual({
      code: 2,
      lines: ["confab: config: listen.port (--port): must be an integer"],
      stdout: "",
    });
    expect(failure(await run(["version", "--config", join(tmp.path, "missing.yaml")])).code).toBe(2);
  });

  test("the config file and the environment are used", async () => {
    const dir = dataDir();
    const cfg = join(tmp.path, "good.yaml");
    writeFileSync(cfg, `data_dir: ${JSON.stringify(dir)}\nfirst_realm:\n  name: From The File\n`);
    const s = await serve(dir, { args: ["--config", cfg], env: { CONFAB_FIRST_REALM_OWNER_EMAIL: "boss@env.test" } });
    try {
      expect(s.stdout()).toContain("organization: From The File");
      expect(s.stdout()).toContain("owner email:  boss@env.test");
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});

describe("realms and users", () => {
  const dir = dataDir();

  test("realm create and list", async () => {
    const r = await run([
      "realm",
      "create",
      "--data-dir",
      dir,
      "--subdomain",
      "",
      "--name",
      "Main Org",
      "--owner-email",
      "owner@main.test",
      "--owner-name",
      "Olive",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^realm 1 created: http:\/\/127\.0\.0\.1:9991\nowner email: owner@main\.test\npassword: +\S{20}\nAPI key: +[A-Za-z0-9]{32}\n$/);
    const withPw = await run(
      ["realm", "create", "--data-dir", dir, "--subdomain", "acme", "--name", "Acme", "--owner-email", "boss@acme.test", "--password-stdin"],
      {
        stdin: "acme-password\n",
      },
    );
    expect(withPw.code).toBe(0);
    expect(withPw.stdout).not.toContain("password");

    const list = await run(["realm", "list", "--data-dir", dir, "--json"]);
    expect(JSON.parse(list.stdout)).toEqual([
      { id: 1, subdomain: "", name: "Main Org", url: "http://127.0.0.1:9991", deactivated: false },
      { id: 2, subdomain: "acme", name: "Acme", url: "http://acme.127.0.0.1:9991", deactivated: false },
    ]);
    expect((await run(["realm", "list", "--data-dir", dir])).stdout).toBe(
      "1\t(root)\tMain Org\thttp://127.0.0.1:9991\n2\tacme\tAcme\thttp://acme.127.0.0.1:9991\n",
    );
  });

  test("realm create failures", async () => {
    const base = ["realm", "create", "--data-dir", dir, "--name", "X", "--owner-email", "x@x.test"];
    expect(failure(await run([...base, "--subdomain", "acme"]))).toEqual({ code: 1, lines: ["confab: Subdomain 'acme' is already in use"], stdout: "" });
    expect(failure(await run([...base, "--subdomain", "Bad_Name"]))).toEqual({
      code: 1,
      lines: ["confab: Subdomain may contain only lowercase letters, digits and dashes"],
      stdout: "",
    });
  });

  test("user create with a role, user list", async () => {
    const r = await run(["user", "create", "ann@main.test", "--data-dir", dir, "--name", "Ann Admin", "--role", "administrator"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^user \d+ created: ann@main\.test\nAPI key: [A-Za-z0-9]{32}\n$/);
    expect((await run(["user", "create", "gus@acme.test", "--data-dir", dir, "--realm", "acme", "--name", "Gus", "--role", "guest"])).code).toBe(0);
    expect((await run(["user", "create", "mo@main.test", "--data-dir", dir, "--name", "Mo"])).code).toBe(0);

    // Humans only: a realm may come with bots of its own.
    const humans = (r: { stdout: string }) => JSON.parse(r.stdout).filter((u: any) => !u.is_bot);
    const main = humans(await run(["user", "list", "--data-dir", dir, "--json"]));
    expect(main.map((u: any) => [u.email, u.role, u.is_active])).toEqual([
      ["owner@main.test", 100, true],
      ["ann@main.test", 200, true],
      ["mo@main.test", 400, true],
    ]);
    const acme = humans(await run(["user", "list", "--data-dir", dir, "--realm", "acme", "--json"]));
    expect(acme.map((u: any) => [u.email, u.role])).toEqual([
      ["boss@acme.test", 100],
      ["gus@acme.test", 600],
    ]);
    expect((await run(["user", "list", "--data-dir", dir])).stdout).toContain("\tann@main.test\tAnn Admin\t200\n");
  });

  test("user create failures", async () => {
    expect(failure(await run(["user", "create", "x@main.test", "--data-dir", dir, "--name", "X", "--role", "king"]))).toEqual({
      code: 1,
      lines: ["confab: unknown role 'king' (owner, administrator, moderator, member, guest)"],
      stdout: "",
    });
    expect(failure(await run(["user", "create", "ANN@main.test", "--data-dir", dir, "--name", "Dup"]))).toEqual({
      code: 1,
      lines: ["confab: Email 'ANN@main.test' already in use"],
      stdout: "",
    });
    expect(failure(await run(["user", "create", "not-an-email", "--data-dir", dir, "--name", "X"])).code).toBe(1);
    expect(failure(await run(["user", "list", "--data-dir", dir, "--realm", "nope"]))).toEqual({
      code: 1,
      lines: ["confab: no realm with subdomain 'nope'"],
      stdout: "",
    });
  });

  test("user api-key prints the key alone; --regenerate replaces it", async () => {
    const r = await run(["user", "api-key", "ann@main.test", "--data-dir", dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9]{32}\n$/);
    const again = await run(["user", "api-key", "ann@main.test", "--data-dir", dir, "--regenerate"]);
    expect(again.stdout).toMatch(/^[A-Za-z0-9]{32}\n$/);
    expect(again.stdout).not.toBe(r.stdout);
    expect((await run(["user", "api-key", "ann@main.test", "--data-dir", dir])).stdout).toBe(again.stdout);
    expect(failure(await run(["user", "api-key", "nobody@main.test", "--data-dir", dir]))).toEqual({
      code: 1,
      lines: ["confab: no user nobody@main.test in realm ''"],
      stdout: "",
    });
  });

  test("while the server runs: set-password, deactivate, realm deactivate take effect at once", async () => {
    // Realms other than the default are reached on subdomains of the external URL's host.
    const s = await serve(dir, { env: { CONFAB_EXTERNAL_URL: "http://confab.test" } });
    try {
      // Not the first start: nothing about the organization is printed.
      expect(s.stdout()).toBe("");
      const key = (await run(["user", "api-key", "mo@main.test", "--data-dir", dir])).stdout.trim();
      expect((await api(s.url, "/users/me", { auth: ["mo@main.test", key] })).body.email).toBe("mo@main.test");

      const set = await run(["user", "set-password", "mo@main.test", "--data-dir", dir], { stdin: "a-long-password\n" });
      expect(set).toEqual({ code: 0, stdout: "password set for mo@main.test\n", stderr: "" });
      const login = await api(s.url, "/fetch_api_key", { form: { username: "mo@main.test", password: "a-long-password" } });
      expect({ status: login.status, key: login.body.api_key }).toEqual({ status: 200, key });
      expect(failure(await run(["user", "set-password", "mo@main.test", "--data-dir", dir], { stdin: "" }))).toEqual({
        code: 1,
        lines: ["confab: no password on standard input"],
        stdout: "",
      });

      expect(await run(["user", "deactivate", "mo@main.test", "--data-dir", dir])).toEqual({ code: 0, stdout: "mo@main.test deactivated\n", stderr: "" });
      const gone = await api(s.url, "/users/me", { auth: ["mo@main.test", key] });
      expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 401, code: "USER_DEACTIVATED" });
      expect(failure(await run(["user", "deactivate", "mo@main.test", "--data-dir", dir]))).toEqual({
        code: 1,
        lines: ["confab: User is already deactivated"],
        stdout: "",
      });

      const bossKey = (await run(["user", "api-key", "boss@acme.test", "--realm", "acme", "--data-dir", dir])).stdout.trim();
      const asBoss = () =>
        fetch(`${s.url}/api/v1/users/me`, {
          headers: { Host: "acme.confab.test", Authorization: "Basic " + Buffer.from(`boss@acme.test:${bossKey}`).toString("base64") },
        }).then(async (r) => ({ status: r.status, code: ((await r.json()) as any).code }));
      expect(await asBoss()).toEqual({ status: 200, code: undefined });
      expect(await run(["realm", "deactivate", "acme", "--data-dir", dir])).toEqual({ code: 0, stdout: "realm 'acme' deactivated\n", stderr: "" });
      expect(await asBoss()).toEqual({ status: 401, code: "REALM_DEACTIVATED" });
      expect(failure(await run(["realm", "deactivate", "acme", "--data-dir", dir]))).toEqual({
        code: 1,
        lines: ["confab: The organization is already deactivated"],
        stdout: "",
      });
      expect((await run(["realm", "reactivate", "acme", "--data-dir", dir])).code).toBe(0);
      expect(await asBoss()).toEqual({ status: 200, code: undefined });
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});

describe("serve", () => {
  test("the first start prints the URL, owner email, password and API key once; later starts print none of it", async () => {
    const dir = dataDir();
    const first = await serve(dir);
    let key: string;
    try {
      const out = first.stdout();
      const url = /URL: +(\S+)/.exec(out)?.[1];
      const email = /owner email: +(\S+)/.exec(out)?.[1];
      const password = /password: +(\S+)/.exec(out)?.[1];
      key = /API key: +(\S+)/.exec(out)?.[1]!;
      expect({ url, email }).toEqual({ url: first.url, email: "owner@confab.localhost" });
      expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
      const me = await api(first.url, "/users/me", { auth: [email!, key] });
      expect(me.body).toMatchObject({ result: "success", email, role: 100 });
      const login = await api(first.url, "/fetch_api_key", { form: { username: email!, password: password! } });
      expect(login.body.api_key).toBe(key);
      // Only the pid file marks the running server; a second server on the same directory is refused.
      expect(existsSync(join(dir, "confab.pid"))).toBe(true);
      expect(failure(await run(["serve", "--data-dir", dir, "--port", "0"]))).toEqual({
        code: 1,
        lines: [`confab: a server is already running on ${dir} (pid ${first.proc.pid})`],
        stdout: "",
      });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(existsSync(join(dir, "confab.pid"))).toBe(false);

    const second = await serve(dir);
    try {
      expect(second.stdout()).toBe("");
      expect(second.stderr()).not.toContain(key);
      expect((await api(second.url, "/users/me", { auth: ["owner@confab.localhost", key] })).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(first.stderr()).not.toContain(key);
  });

  test("one log line per request on stderr, without credentials", async () => {
    const dir = dataDir();
    const s = await serve(dir);
    const key = /API key: +(\S+)/.exec(s.stdout())![1]!;
    await api(s.url, "/users/me", { auth: ["owner@confab.localhost", key] });
    await api(s.url, "/users/me", { auth: ["owner@confab.localhost", "wrong-key-wrong-key-wrong-key-00"] });
    expect(await s.stop()).toBe(0);
    const lines = s
      .stderr()
      .split("\n")
      .filter((l) => l.includes(" request "));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ info request method=GET path=\/api\/v1\/users\/me status=200 ms=[\d.]+ user=1$/);
    expect(lines[1]).toMatch(/ info request method=GET path=\/api\/v1\/users\/me status=401 ms=[\d.]+ user=-$/);
    expect(s.stderr()).not.toContain(key);
    expect(s.stderr()).not.toContain("wrong-key");
  });
});

describe("migrations", () => {
  test("migrate applies the embedded migrations once", async () => {
    const dir = dataDir();
    const first = await run(["migrate", "--data-dir", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied 0000_\w+/);
    expect(await run(["migrate", "--data-dir", dir])).toEqual({ code: 0, stdout: "database is up to date\n", stderr: "" });
  });

  test("a database written by a newer confab is refused by every command, and left untouched", async () => {
    const dir = dataDir();
    expect((await run(["migrate", "--data-dir", dir])).code).toBe(0);
    const db = new Database(join(dir, "confab.db"));
    db.run("INSERT INTO confab_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)");
    const before = db.query("SELECT tag FROM confab_migrations ORDER BY tag").all();
    db.close();
    const msg =
      "confab: the database was written by a newer confab (it has migration 9999_from_the_future which this version does not know); upgrade confab or restore a backup";
    for (const args of [["migrate"], ["user", "list"], ["serve", "--port", "0"]])
      expect(failure(await run([...args, "--data-dir", dir]))).toEqual({ code: 1, lines: [msg], stdout: "" });
    const after = new Database(join(dir, "confab.db"), { readonly: true });
    expect(after.query("SELECT tag FROM confab_migrations ORDER BY tag").all()).toEqual(before);
    expect(after.query("SELECT count(*) AS n FROM realms").get()).toEqual({ n: 0 });
    after.close();
  });

  test("a data directory holding some other SQLite database is refused", async () => {
    const dir = dataDir();
    expect((await run(["migrate", "--data-dir", dir])).code).toBe(0);
    const foreign = new Database(join(dir, "confab.db"));
    foreign.run("DROP TABLE confab_migrations");
    foreign.close();
    expect(failure(await run(["user", "list", "--data-dir", dir]))).toEqual({
      code: 1,
      lines: ["confab: the database file is not a confab database (it has tables but no confab_migrations ledger)"],
      stdout: "",
    });
  });
});

describe("backup and restore", () => {
  test("backup while the server runs is a consistent copy; restore refuses while it runs, refuses non-confab files, and brings the copy back", async () => {
    const dir = dataDir();
    const s = await serve(dir);
    const key = /API key: +(\S+)/.exec(s.stdout())![1]!;
    const backup = join(tmp.path, "backup.db");
    let atBackup: string[] = [];
    try {
      expect((await run(["user", "create", "before@confab.localhost", "--data-dir", dir, "--name", "Before"])).code).toBe(0);
      const emails = async () => JSON.parse((await run(["user", "list", "--data-dir", dir, "--json"])).stdout).map((u: any) => u.email);
      atBackup = await emails();
      expect(atBackup).toContain("before@confab.localhost");
      // Writes keep arriving over HTTP while the copy is taken.
      let writing = true;
      const writer = (async () => {
        let i = 0;
        while (writing) await api(s.url, "/users/me/presence", { auth: ["owner@confab.localhost", key], form: { status: i++ % 2 ? "idle" : "active" } });
      })();
      const b = await run(["backup", backup, "--data-dir", dir]);
      writing = false;
      await writer;
      expect(b.code).toBe(0);
      expect(b.stdout).toMatch(new RegExp(`^backup written to ${backup} and verified: integrity ok, \\d+ rows in \\d+ tables match the database`));
      expect(failure(await run(["backup", backup, "--data-dir", dir]))).toEqual({ code: 1, lines: [`confab: ${backup} already exists`], stdout: "" });

      const copy = new Database(backup, { readonly: true });
      expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(
        copy
          .query<{ email: string }, []>("SELECT email FROM users ORDER BY id")
          .all()
          .map((u) => u.email),
      ).toEqual(atBackup);
      copy.close();

      expect((await run(["user", "create", "after@confab.localhost", "--data-dir", dir, "--name", "After"])).code).toBe(0);
      expect(failure(await run(["restore", backup, "--data-dir", dir]))).toEqual({
        code: 1,
        lines: [`confab: the server is running (pid ${s.proc.pid}); stop it before restoring`],
        stdout: "",
      });
    } finally {
      expect(await s.stop()).toBe(0);
    }

    const text = join(tmp.path, "notes.txt");
    writeFileSync(text, "not a database at all\n".repeat(100));
    expect(failure(await run(["restore", text, "--data-dir", dir]))).toEqual({ code: 1, lines: [`confab: ${text} is not a confab database`], stdout: "" });
    const other = join(tmp.path, "other.db");
    const o = new Database(other);
    o.run("CREATE TABLE t (x)");
    o.close();
    expect(failure(await run(["restore", other, "--data-dir", dir]))).toEqual({ code: 1, lines: [`confab: ${other} is not a confab database`], stdout: "" });
    expect(failure(await run(["restore", join(tmp.path, "none.db"), "--data-dir", dir]))).toEqual({
      code: 1,
      lines: [`confab: ${join(tmp.path, "none.db")} does not exist`],
      stdout: "",
    });
    // Refused files changed nothing.
    expect((await run(["user", "list", "--data-dir", dir, "--json"])).stdout).toContain("after@confab.localhost");

    const r = await run(["restore", backup, "--data-dir", dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`restored ${backup} into ${join(dir, "confab.db")}\n`);
    const users = JSON.parse((await run(["user", "list", "--data-dir", dir, "--json"])).stdout).map((u: any) => u.email);
    expect(users).toEqual(atBackup);
    const again = await serve(dir);
    try {
      expect(again.stdout()).toBe("");
      expect((await api(again.url, "/users/me", { auth: ["owner@confab.localhost", key] })).status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 90_000);
});
