// For operators: `confab doctor` (is this installation sound? one line per check, with what to do) and
// `confab health` (asks the running server's GET /health: Docker's HEALTHCHECK, which has no curl).
import type { Command } from "commander";
import { accessSync, constants, existsSync, readFileSync, statfsSync, statSync } from "node:fs";
import { databasePath } from "../../src/app";
import { describePostgresUrl, type Config } from "../../src/config";
import { damaged, inspectDatabaseFile } from "../../src/db/integrity";
import { inspectKey } from "../../src/lib/crypto";
import { runningServer } from "../pidfile";
import { action, configFrom, withCommon } from "../common";

type Verdict = { ok: true; detail: string } | { ok: false; detail: string; fix: string } | { ok: "warn"; detail: string; fix: string };
const pass = (detail: string): Verdict => ({ ok: true, detail });
const fail = (detail: string, fix: string): Verdict => ({ ok: false, detail, fix });
const warn = (detail: string, fix: string): Verdict => ({ ok: "warn", detail, fix });

/** Free space below this fails the check (SQLite needs room for its WAL and for VACUUM). */
const MIN_FREE = 256 * 2 ** 20;
const LOW_FREE = 2 * 2 ** 30;
const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;

function dataDirCheck(config: Config): Verdict {
  const dir = config.dataDir;
  if (!existsSync(dir)) return warn(`${dir} does not exist yet`, "confab serve (or confab migrate) creates it");
  const st = statSync(dir);
  if (!st.isDirectory()) return fail(`${dir} is not a directory`, "point data_dir at a directory");
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    return fail(`${dir} is not writable by this user (uid ${process.getuid?.()})`, `chown it to the user confab runs as, or run confab as its owner`);
  }
  if (st.mode & 0o077)
    return warn(`${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`, `chmod 700 ${dir}: it holds the database and the secrets key`);
  return pass(`${dir} (mode 700)`);
}

function freeSpaceCheck(config: Config): Verdict {
  const dir = existsSync(config.dataDir) ? config.dataDir : ".";
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  if (free < MIN_FREE) return fail(`${mib(free)} free`, "free disk space: below this, writes start failing (507)");
  if (free < LOW_FREE) return warn(`${mib(free)} free`, "free disk space soon; backups and VACUUM need room too");
  return pass(`${mib(free)} free`);
}

/** The database: header, quick_check, and migrations; on PostgreSQL, that it answers, and its migrations. */
async function databaseChecks(config: Config): Promise<[string, Verdict][]> {
  if (config.storage.driver === "postgres") return await postgresChecks(config);
  const path = databasePath(config);
  if (!existsSync(path)) return [["database", warn(`${path} does not exist yet`, "confab serve creates it on first start")]];
  const r = inspectDatabaseFile(path);
  const restore = "stop confab and restore a backup: confab restore <backup file>";
  if (r.kind === "damaged") return [["database", fail(damaged(path, r.why).message, "confab restore <backup file>")]];
  if (r.kind === "foreign") return [["database", fail(`${path} is not a confab database`, "point data_dir at confab's data directory")]];
  const integrity =
    r.problems.length === 1 && r.problems[0] === "ok"
      ? pass(`${path}: quick_check ok`)
      : fail(`${path}: quick_check: ${r.problems.slice(0, 2).join("; ")}`, restore);
  const migrations: Verdict = r.unknown.length
    ? fail(`written by a newer confab (migration ${r.unknown[0]})`, "run the newer confab, or restore a backup this version wrote")
    : r.pending.length
      ? warn(`${r.pending.length} pending (${r.pending.at(-1)})`, "they apply at the next start (a backup is taken first), or now with confab migrate")
      : pass("up to date");
  return [
    ["database", integrity],
    ["migrations", migrations],
  ];
}

async function postgresChecks(config: Config): Promise<[string, Verdict][]> {
  const where = describePostgresUrl(config.storage.url);
  const [{ SQL }, { postgresMigrationStatus }] = await Promise.all([import("bun"), import("../../src/db/migrate-pg")]);
  const sql = new SQL(config.storage.url, { max: 1, connectionTimeout: 5 });
  try {
    const r = await postgresMigrationStatus(sql);
    if (r.kind === "foreign") return [["database", fail(`${where} is not a confab database`, "point storage.url at confab's database")]];
    const migrations: Verdict = r.unknown.length
      ? fail(`written by a newer confab (migration ${r.unknown[0]})`, "run the newer confab")
      : r.pending.length
        ? warn(`${r.pending.length} pending (${r.pending.at(-1)})`, "they apply at the next start, or now with confab migrate (take a pg_dump first)")
        : pass("up to date");
    return [
      ["database", pass(`PostgreSQL ${r.version} at ${where} answers (its backups and checks are PostgreSQL's: pg_dump, your provider's)`)],
      ["migrations", migrations],
    ];
  } catch (e) {
    return [["database", fail(`PostgreSQL at ${where} does not answer: ${(e as Error).message}`, "check storage.url, the network and the PostgreSQL server")]];
  } finally {
    await sql.close();
  }
}

function secretsKeyCheck(config: Config): Verdict {
  try {
    return pass(inspectKey(config.dataDir, process.env.CONFAB_SECRETS_KEY));
  } catch (e) {
    return fail((e as Error).message, "fix the key file's mode, or restore the key from your backup: without it stored secrets cannot be read");
  }
}

async function externalUrlCheck(config: Config): Promise<Verdict> {
  const url = `${config.externalUrl}/health`;
  if (runningServer(config.dataDir) === null)
    return warn(`no server is running on ${config.dataDir}, so ${url} was not tried`, "start confab, then run confab doctor again");
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json().catch(() => null)) as { status?: string; version?: string } | null;
    if (!body?.version) return fail(`${url} answered ${res.status}, but not as confab`, "external_url must reach this server: check DNS and the reverse proxy");
    if (res.status !== 200) return fail(`${url} answered ${res.status} (${body.status})`, "see GET /health's answer and the server's log");
    return pass(`${url} answers`);
  } catch (e) {
    return fail(
      `${url} is unreachable from this machine: ${(e as Error).message}`,
      "external_url must reach this server: check DNS, the firewall, the reverse proxy or tls.cert",
    );
  }
}

function gitCheck(): Verdict {
  const r = Bun.spawnSync(["git", "--version"], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode === 0) return pass(r.stdout.toString().trim());
  return fail("git is not installed", "install git: repositories and plugin installs need it");
}

function filesCheck(config: Config): Verdict {
  if (!config.tls.cert) return pass("plain HTTP (no tls.cert)");
  for (const f of [config.tls.cert, config.tls.key])
    try {
      readFileSync(f);
    } catch (e) {
      return fail(`${f}: ${(e as Error).message}`, "tls.cert and tls.key must be readable PEM files");
    }
  return pass(`certificate ${config.tls.cert}`);
}

export function register(program: Command) {
  withCommon(
    program
      .command("doctor")
      .description("check this installation: config, data directory, database, migrations, secrets key, external_url, git (exit 1 on a failure)"),
  ).action(
    action(async (opts) => {
      const lines: [string, Verdict][] = [];
      let config: Config;
      try {
        config = configFrom(opts);
        lines.push(["config", pass(opts.config ?? process.env.CONFAB_CONFIG ?? "defaults and CONFAB_* environment")]);
      } catch (e) {
        lines.push(["config", fail((e as Error).message, "fix the key it names (config.example.yaml documents every key)")]);
        return report(lines);
      }
      lines.push(["storage", pass(config.storage.driver === "postgres" ? "PostgreSQL (storage.url)" : "SQLite (data_dir/confab.db)")]);
      lines.push(["data directory", dataDirCheck(config)], ["free space", freeSpaceCheck(config)], ...(await databaseChecks(config)), [
        "secrets key",
        secretsKeyCheck(config),
      ]);
      lines.push(["tls", filesCheck(config)], ["external_url", await externalUrlCheck(config)], ["git", gitCheck()]);
      report(lines);
    }),
  );

  withCommon(program.command("health").description("ask the running server's GET /health; exit 0 when healthy (for Docker's HEALTHCHECK)"))
    .option("--url <url>", "the server's base URL (default: this machine at listen.port)")
    .action(
      action(async (opts) => {
        const config = configFrom(opts);
        const scheme = config.tls.cert ? "https" : "http";
        const host = ["0.0.0.0", "::"].includes(config.listen.host) ? "127.0.0.1" : config.listen.host;
        const base = (opts.url as string | undefined) ?? `${scheme}://${host.includes(":") ? `[${host}]` : host}:${config.listen.port}`;
        // The certificate names the public host, not loopback: this probe checks health, not identity.
        const res = await fetch(`${base.replace(/\/+$/, "")}/health`, { signal: AbortSignal.timeout(5000), tls: { rejectUnauthorized: false } } as RequestInit);
        const text = await res.text();
        console.log(`${res.status} ${text}`);
        if (res.status !== 200) process.exit(1);
      }),
    );
}

function report(lines: [string, Verdict][]) {
  for (const [name, v] of lines) {
    const mark = v.ok === true ? "ok  " : v.ok === "warn" ? "warn" : "FAIL";
    console.log(`${mark}  ${name}: ${v.detail}${v.ok === true ? "" : ` -> ${v.fix}`}`);
  }
  if (lines.some(([, v]) => v.ok === false)) process.exit(1);
}
