// Children of the plugin host and of the agent run in process groups of their own, so a stop reaches
// everything they started. A JSON ledger in the data directory names the groups running, so that a
// server killed outright has its leftovers ended on its next start.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

export function signalGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** Living (not zombie) processes of a process group, from /proc. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") out.push(Number(e));
    } catch {
      // it ended while we looked
    }
  }
  return out;
}

/**
 * After a group's leader ended: members left behind get SIGTERM (unless the group is being stopped, when
 * they already had it) and, still there after the grace period, SIGKILL.
 */
export async function killGroup(pgid: number, graceMs: number, termSent: boolean) {
  if (!groupMembers(pgid).length) return;
  if (!termSent) signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groupMembers(pgid).length && Date.now() < deadline) await Bun.sleep(20);
  if (!groupMembers(pgid).length) return;
  signalGroup(pgid, "SIGKILL");
  for (let i = 0; i < 50 && groupMembers(pgid).length; i++) await Bun.sleep(20);
}

/** The ledger of running groups, by owner id (an install, a run); `envKey` is the variable naming that id. */
export class GroupLedger {
  constructor(
    private readonly file: string,
    private readonly envKey: string,
  ) {}

  /** Ends the groups a previous server left, where the group's leader still carries our id (the pid may be reused). */
  endLeftovers() {
    let groups: Record<string, number>;
    try {
      groups = JSON.parse(readFileSync(this.file, "utf8"));
    } catch {
      return;
    }
    for (const [id, pgid] of Object.entries(groups)) {
      let environ = "";
      try {
        environ = readFileSync(`/proc/${pgid}/environ`, "utf8");
      } catch {
        continue; // gone
      }
      if (environ.split("\0").includes(`${this.envKey}=${id}`)) signalGroup(pgid, "SIGKILL");
    }
    this.record({});
  }

  /** Writes the groups running now; returns the error if the file could not be written. */
  record(groups: Record<string | number, number>): Error | null {
    try {
      writeFileSync(this.file, JSON.stringify(groups));
      return null;
    } catch (e) {
      return e as Error;
    }
  }
}

/**
 * Ends the process groups on this machine whose leader's environment holds `${key}=${id}` and `also`
 * (a node that died left them; `also` tells one database's install from another's): SIGTERM, then
 * SIGKILL after the grace period. Processes of other users are not readable and not touched.
 */
export async function endStrays(key: string, id: string, also: string, graceMs: number) {
  const leaders: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== Number(e)) continue; // not a group's leader
      const env = readFileSync(`/proc/${e}/environ`, "utf8").split("\0");
      if (env.includes(`${key}=${id}`) && env.includes(also)) leaders.push(Number(e));
    } catch {
      // it ended while we looked, or is not ours to read
    }
  }
  await Promise.all(leaders.map(async (pgid) => await killGroup(pgid, graceMs, false)));
}
