// A throwaway PostgreSQL server for tests and probes: Debian's binaries, initdb in a temporary directory,
// one cluster per call on a free 127.0.0.1 port, trust authentication, removed again by stop().
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SQL } from "bun";

export interface Postgres {
  /** postgres://confab@127.0.0.1:<port>/confab */
  url: string;
  port: number;
  /** The server's process id (the postmaster), while it runs. */
  pid: number;
  /** Creates another, empty database on this server (owned by the test role); returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** fsync on, as in production (for measurements). Tests run with fsync off: nothing is kept. */
  durable?: boolean;
  /** Extra server settings (`-c name=value`). */
  settings?: Record<string, string>;
}

type Found = { bin: string; runAs: string[]; owner: { uid: number; gid: number } | null } | { missing: string };

const ROLE = "confab";
let found: Found | undefined;

/** Where PostgreSQL's binaries are and how to run them; or, in `missing`, why they cannot be had here. */
function locate(): Found {
  const bin = binDir();
  if (!bin) return { missing: "no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH; install Debian's postgresql" };
  if (process.getuid?.() !== 0) return { bin, runAs: [], owner: null };
  // initdb refuses to run as root: run the server as the package's own "postgres" user.
  const id = (flag: string) => Bun.spawnSync(["id", flag, "postgres"], { stdout: "pipe", stderr: "ignore" });
  const uid = id("-u"),
    gid = id("-g");
  if (uid.exitCode !== 0 || gid.exitCode !== 0) return { missing: "running as root and there is no 'postgres' user to run initdb as" };
  const runuser = Bun.which("runuser");
  if (!runuser) return { missing: "running as root and runuser (util-linux) is missing, so PostgreSQL cannot run as 'postgres'" };
  return { bin, runAs: [runuser, "-u", "postgres", "--"], owner: { uid: Number(uid.stdout.toString()), gid: Number(gid.stdout.toString()) } };
}

/** The newest /usr/lib/postgresql/<version>/bin, else the directory of a pg_ctl on PATH. */
function binDir(): string | null {
  const has = (dir: string) => ["initdb", "pg_ctl", "postgres"].every((b) => existsSync(join(dir, b)));
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (has(join(root, v, "bin"))) return join(root, v, "bin");
  const onPath = Bun.which("pg_ctl");
  if (onPath) {
    const dir = dirname(realpathSync(onPath));
    if (has(dir)) return dir;
  }
  return null;
}

/**
 * Why PostgreSQL cannot be started here, or null when it can. A test that needs it skips when this is
 * not null, and says so (this prints the reason, prefixed by `what`, once per call).
 */
export function postgresMissing(what: string): string | null {
  found ??= locate();
  if (!("missing" in found)) return null;
  console.warn(`${what}: SKIPPED — ${found.missing}`);
  return found.missing;
}

/** A free TCP port on 127.0.0.1 (the kernel's choice; PostgreSQL binds it a moment later). */
function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

function run(cmd: string[], what: string) {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${what} failed (${r.exitCode}): ${r.stderr.toString()}${r.stdout.toString()}`);
}

/** The clusters started and not stopped yet, each by its immediate stop. */
const running = new Set<() => void>();

/** Stops every cluster still running (after a test run's last file: test/setup.ts). */
export function stopAllPostgres() {
  for (const stopNow of [...running]) stopNow();
}

/** Starts a fresh cluster; throws (with PostgreSQL's words) when it cannot, or when `postgresMissing` would say why. */
export async function startPostgres(o: PostgresOptions = {}): Promise<Postgres> {
  found ??= locate();
  if ("missing" in found) throw new Error(found.missing);
  const { bin, runAs, owner } = found;
  const dir = mkdtempSync(join(tmpdir(), "confab-pg-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const pgctl = (...args: string[]) => [...runAs, join(bin, "pg_ctl"), "-D", data, ...args];
  try {
    run([...runAs, join(bin, "initdb"), "-D", data, "-U", ROLE, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], "initdb");
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: dir,
    ...(o.durable ? {} : { fsync: "off", synchronous_commit: "off", full_page_writes: "off" }),
    ...o.settings,
  };
  const flags = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(" ");
  // The port is free when chosen but another process may take it first: try again on a new one.
  for (let attempt = 1; ; attempt++) {
    const port = freePort();
    try {
      run(pgctl("start", "-w", "-t", "30", "-l", join(dir, "server.log"), "-o", `-p ${port} ${flags}`), "pg_ctl start");
    } catch (e) {
      if (attempt < 3 && /could not bind|already in use/i.test(readLog(dir))) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${(e as Error).message}\n${readLog(dir)}`);
    }
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      process.off("exit", stopNow);
      running.delete(stopNow);
      await Bun.spawn(pgctl("stop", "-w", "-m", "fast"), { stdout: "ignore", stderr: "ignore" }).exited;
      rmSync(dir, { recursive: true, force: true });
    };
    // A run that ends before stop() must not leave a server behind: bun test runs no "exit" listener, so
    // its runs stop what is left after their last file (test/setup.ts); other scripts, at exit.
    const stopNow = () => {
      if (stopped) return;
      stopped = true;
      running.delete(stopNow);
      Bun.spawnSync(pgctl("stop", "-w", "-m", "immediate"), { stdout: "ignore", stderr: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    };
    process.on("exit", stopNow);
    running.add(stopNow);
    const base = `postgres://${ROLE}@127.0.0.1:${port}`;
    const createDatabase = async (name: string) => {
      const admin = new SQL(`${base}/postgres`, { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.close();
      }
      return `${base}/${name}`;
    };
    // The database the URL names (initdb made only "postgres").
    try {
      await createDatabase(ROLE);
    } catch (e) {
      await stop();
      throw e;
    }
    return { url: `${base}/${ROLE}`, port, pid, createDatabase, stop };
  }
}

function readLog(dir: string): string {
  const log = join(dir, "server.log");
  return existsSync(log) ? readFileSync(log, "utf8") : "";
}
