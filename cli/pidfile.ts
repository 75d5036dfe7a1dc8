import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "./common";

const pidPath = (dataDir: string) => join(dataDir, "confab.pid");

/** The pid of a running server on this data directory, or null. */
export function runningServer(dataDir: string): number | null {
  const path = pidPath(dataDir);
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

/** Marks the data directory as served by this process; refuses a second server on it. */
export function acquirePidFile(dataDir: string): () => void {
  const other = runningServer(dataDir);
  if (other !== null && other !== process.pid) throw new CliError(`a server is already running on ${dataDir} (pid ${other})`);
  writeFileSync(pidPath(dataDir), String(process.pid), { mode: 0o600 });
  return () => rmSync(pidPath(dataDir), { force: true });
}
