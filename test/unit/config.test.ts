// The config loader: defaults < YAML file < CONFAB_* environment < flags; a bad or unknown key is a
// ConfigError naming it; config.example.yaml is exactly what the key table generates.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONFIG_EXAMPLE_PATH, renderConfigExample } from "../../scripts/config-example";
import { ConfigError, describePostgresUrl, loadConfig } from "../../src/config";
import { CONFIG_KEYS } from "../../src/config/schema";

const dir = mkdtempSync(join(tmpdir(), "confab-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function yamlFile(text: string): string {
  const path = join(dir, `c${++n}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** The one-line message of the ConfigError that loading throws. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const msg = (e as Error).message;
    expect(msg).not.toContain("\n");
    return msg;
  }
  throw new Error("expected a ConfigError");
}

describe("defaults and precedence", () => {
  test("with nothing given, the embedded defaults: ./data, 127.0.0.1:9991", () => {
    const c = loadConfig({}, {});
    expect(c.listen).toEqual({ host: "127.0.0.1", port: 9991 });
    expect(c.dataDir).toBe(resolve("./data"));
    expect(c.externalUrl).toBe("http://127.0.0.1:9991");
    expect(c.storage).toEqual({ driver: "sqlite", url: "", synchronous: "full", busyTimeoutMs: 5000 });
    expect(c.development).toBe(false);
  });

  test("file < environment < flags", () => {
    const file = yamlFile("listen:\n  host: 0.0.0.0\n  port: 8000\nlog_level: debug\nlimits:\n  max_message_length: 500\n");
    const fromFile = loadConfig({ config: file }, {});
    expect(fromFile.listen).toEqual({ host: "0.0.0.0", port: 8000 });
    expect(fromFile.logLevel).toBe("debug");
    expect(fromFile.limits.maxMessageLength).toBe(500);

    const env = { CONFAB_LISTEN_PORT: "8001", CONFAB_LOG_LEVEL: "warn", CONFAB_DEVELOPMENT: "true" };
    const fromEnv = loadConfig({ config: file }, env);
    expect(fromEnv.listen).toEqual({ host: "0.0.0.0", port: 8001 });
    expect(fromEnv.logLevel).toBe("warn");
    expect(fromEnv.development).toBe(true);

    const fromFlags = loadConfig({ config: file, port: "8002", host: "::1", dataDir: "/srv/confab" }, env);
    expect(fromFlags.listen).toEqual({ host: "::1", port: 8002 });
    expect(fromFlags.dataDir).toBe("/srv/confab");
    expect(fromFlags.externalUrl).toBe("http://[::1]:8002");
  });

  test("CONFAB_CONFIG names the file when --config is absent", () => {
    const file = yamlFile("first_realm:\n  name: Acme\n");
    expect(loadConfig({}, { CONFAB_CONFIG: file }).firstRealm.name).toBe("Acme");
  });

  test("external_url loses its trailing slash; an empty file is all defaults", () => {
    expect(loadConfig({}, { CONFAB_EXTERNAL_URL: "https://chat.example.com/" }).externalUrl).toBe("https://chat.example.com");
    expect(loadConfig({ config: yamlFile("") }, {}).listen.port).toBe(9991);
    // Listening on every interface, the derived URL names loopback, which a client can reach.
    expect(loadConfig({ host: "0.0.0.0" }, {}).externalUrl).toBe("http://127.0.0.1:9991");
    expect(loadConfig({ host: "::" }, {}).externalUrl).toBe("http://[::1]:9991");
  });
});

describe("bad keys and values: one line naming the key", () => {
  test("unknown keys, top-level and nested", () => {
    expect(configError(() => loadConfig({ config: yamlFile("colour: blue\n") }, {}))).toMatch(/^config: unknown key colour \(/);
    expect(configError(() => loadConfig({ config: yamlFile("listen:\n  hots: x\n") }, {}))).toMatch(/^config: unknown key listen\.hots \(/);
  });

  test("a section given a scalar", () => {
    expect(configError(() => loadConfig({ config: yamlFile("listen: 5\n") }, {}))).toMatch(/^config: listen \(.*\): must be a mapping$/);
  });

  test("wrong types and out-of-range values", () => {
    const cases: [string, RegExp][] = [
      ["listen:\n  port: abc\n", /^config: listen\.port \(.*\): must be an integer$/],
      ["listen:\n  port: 70000\n", /^config: listen\.port \(.*\): must be at most 65535$/],
      ["development: maybe\n", /^config: development \(.*\): must be true or false$/],
      ["log_level: loud\n", /^config: log_level \(.*\): must be one of debug, info, warn, error$/],
      ["storage:\n  synchronous: off\n", /^config: storage\.synchronous \(.*\): must be one of full, normal$/],
      ["external_url: 5\n", /^config: external_url \(.*\): must be a string$/],
      ["limits:\n  max_message_length: 0\n", /^config: limits\.max_message_length \(.*\): must be at least 1$/],
    ];
    for (const [text, re] of cases) expect(configError(() => loadConfig({ config: yamlFile(text) }, {}))).toMatch(re);
  });

  test("environment: an unknown CONFAB_* variable, a bad value", () => {
    expect(configError(() => loadConfig({}, { CONFAB_LISTEN_PROT: "1" }))).toBe("config: unknown environment variable CONFAB_LISTEN_PROT");
    expect(configError(() => loadConfig({}, { CONFAB_LISTEN_PORT: "x" }))).toBe("config: listen.port (CONFAB_LISTEN_PORT): must be an integer");
    // Variables of other parts of confab are not config keys and are let through.
    expect(loadConfig({}, { CONFAB_TEST_ANYTHING: "1", CONFAB_OPENAPI: "x", OTHER: "y" }).listen.port).toBe(9991);
  });

  test("storage: PostgreSQL by URL, which is never shown with its password", () => {
    const url = "postgres://confab:s3cret@db.example:5432/chat";
    const c = loadConfig({}, { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: url });
    expect(c.storage).toMatchObject({ driver: "postgres", url });
    expect(describePostgresUrl(url)).toBe("postgres://confab@db.example:5432/chat");
    const refused: [Record<string, string>, string][] = [
      [{ CONFAB_STORAGE_DRIVER: "mysql" }, "config: storage.driver (CONFAB_STORAGE_DRIVER): must be one of sqlite, postgres"],
      [{ CONFAB_STORAGE_DRIVER: "postgres" }, "config: storage.driver postgres needs storage.url (postgres://user:password@host:port/database)"],
      [{ CONFAB_STORAGE_URL: url }, "config: storage.url is for storage.driver postgres (the SQLite database is data_dir/confab.db)"],
      [
        { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: "mysql://confab:s3cret@db/chat" },
        "config: storage.url: not a PostgreSQL URL like postgres://user:password@host:port/database",
      ],
      [
        { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: url, CONFAB_BACKUP_SCHEDULE: "daily" },
        "config: backup.schedule backs up the SQLite file; with storage.driver postgres, back up PostgreSQL with its own tools (pg_dump, your provider's snapshots)",
      ],
    ];
    for (const [env, msg] of refused) expect(configError(() => loadConfig({}, env))).toBe(msg);
  });

  test("a bad flag, an unreadable file, a file that is not YAML", () => {
    expect(configError(() => loadConfig({ port: "http" }, {}))).toBe("config: listen.port (--port): must be an integer");
    expect(configError(() => loadConfig({ config: join(dir, "missing.yaml") }, {}))).toMatch(/^config: cannot read .*missing\.yaml/);
    expect(configError(() => loadConfig({ config: yamlFile("listen: [1,\n") }, {}))).toMatch(/^config: .* is not valid YAML/);
  });
});

describe("config.example.yaml", () => {
  test("is what scripts/config-example.ts generates (run `npm run config:example` after changing the key table)", () => {
    expect(readFileSync(CONFIG_EXAMPLE_PATH, "utf8")).toBe(renderConfigExample());
  });

  test("documents every key, and loading it gives the defaults", () => {
    const text = readFileSync(CONFIG_EXAMPLE_PATH, "utf8");
    for (const key of Object.keys(CONFIG_KEYS)) {
      const leaf = key.split(".").pop()!;
      expect(text).toMatch(new RegExp(`^ *${leaf}: `, "m"));
      expect(text).toContain("CONFAB_" + key.replace(/\./g, "_").toUpperCase());
    }
    expect(loadConfig({ config: CONFIG_EXAMPLE_PATH }, {})).toEqual(loadConfig({}, {}));
  });
});
