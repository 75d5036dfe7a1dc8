import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "./common";

/**
 * SQLite: one server per data directory, `confab.pid`. PostgreSQL: several nodes may share the data
 * directory (shared storage, docs/scaling.md section 9), each with its own `confab-<node>.pid`.
 */
const pidPath = (dataDir: string, node: string | null) => join(dataDir, node === null ? "confab.pid" : `confab-${node}.pid`);

function livePid(path: string): number | null {
  if (!existsSync(path)) return null;
  const pid = Number(readFileSync(path, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null; // stale: the server died without cleaning up
  }
}

/** The pid of a server running on this data directory (the SQLite server, or any PostgreSQL node on this machine), or null. */
export function runningServer(dataDir: string): number | null {
  const own = livePid(pidPath(dataDir, null));
  if (own !== null || !existsSync(dataDir)) return own;
  for (const f of readdirSync(dataDir)) {
    const pid = /^confab-[A-Za-z0-9]+\.pid$/.test(f) ? livePid(join(dataDir, f)) : null;
    if (pid !== null) return pid;
  }
  return null;
}

/**
 * Marks the data directory as served by this process. On SQLite it refuses a second server on it; a
 * PostgreSQL node (`node`: its name) writes its own file beside the others'.
 */
export function acquirePidFile(dataDir: string, node: string | null = null): () => void {
  if (node === null) {
    const other = runningServer(dataDir);
    if (other !== null && other !== process.pid) throw new CliError(`a server is already running on ${dataDir} (pid ${other})`);
  }
  const path = pidPath(dataDir, node);
  writeFileSync(path, String(process.pid), { mode: 0o600 });
  return () => rmSync(path, { force: true });
}
