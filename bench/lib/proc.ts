// Starting and measuring server processes for benchmarks.
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200 (`check` may throw to give up); returns the milliseconds since `since` (a performance.now()). */
export async function firstAnswer(url: string, since: number, timeoutMs = 10_000, check?: () => void): Promise<number> {
  for (;;) {
    check?.();
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await Bun.sleep(1);
  }
}

/** Resident memory of a process, from /proc/<pid>/status (Linux), in MB. */
export function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) / 1024;
}

/**
 * Where a process's resident memory lies (/proc/PID/smaps), in MB: the executable's machine code pages
 * read so far, its read-only data, its writable data (the embedded JavaScript and bytecode of a compiled
 * executable), anonymous memory (the JavaScript heap, malloc, JIT code), and other files (libc, ...).
 */
export function rssParts(pid: number): Record<"code" | "rodata" | "data" | "anon" | "libs", number> {
  const exe = readlinkSync(`/proc/${pid}/exe`);
  const parts = { code: 0, rodata: 0, data: 0, anon: 0, libs: 0 };
  let kind: keyof typeof parts = "anon";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, perms, file] = head;
      kind = !file || file.startsWith("[") ? "anon" : file !== exe ? "libs" : perms!.includes("x") ? "code" : perms!.includes("w") ? "data" : "rodata";
    } else if (line.startsWith("Rss:")) parts[kind] += Number(line.split(/\s+/)[1]) / 1024;
  }
  return parts;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function stop(proc: ReturnType<typeof Bun.spawn>) {
  proc.kill("SIGTERM");
  await proc.exited;
}

/** CPU time (user + system) a process has used so far, in microseconds, from /proc/<pid>/stat (Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1_000_000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

/**
 * CPU time every thread of a process has used so far, in ms, from /proc/<pid>/task/<tid>/schedstat
 * (nanoseconds: a start's few tens of ms are below /proc/<pid>/stat's 10 ms ticks). Linux.
 */
export function cpuMsAllThreads(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

/**
 * The environment for a benchmarked server: load generators are a few users sending as fast as they
 * can, so the API rate limits would otherwise measure themselves (every answer a 429).
 */
export const NO_RATE_LIMITS = { ...process.env, CONFAB_RATE_LIMIT_API_BY_USER: "[]", CONFAB_RATE_LIMIT_API_BY_IP: "[]" };

/**
 * Starts the compiled server on a data directory, as an operator would but logging only warnings
 * (its output appended to `logFile`), and waits until it answers; `ms` is how long that took.
 */
export async function serveExe(exe: string, dataDir: string, logFile: string, timeoutMs = 30_000, env: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = openSync(logFile, "a");
  const t0 = performance.now();
  const proc = Bun.spawn([exe, "serve", "--data-dir", dataDir, "--port", String(port)], {
    env: { ...NO_RATE_LIMITS, CONFAB_LOG_LEVEL: "warn", ...env },
    stdout: log,
    stderr: log,
    stdin: "ignore",
  });
  closeSync(log); // the child holds its own copy
  const ms = await firstAnswer(`${url}/api/v1/server_settings`, t0, timeoutMs, () => {
    // A server that exits instead of answering (a refused start) fails at once, not after the timeout.
    if (proc.exitCode !== null) throw new Error(`confab serve exited (${proc.exitCode}) before answering; its output is in ${logFile}`);
  });
  return { proc, url, ms };
}

/** The server's own report after a full collection (SIGUSR2 → a "memory" log line). */
export async function memoryReport(pid: number, logFile: string): Promise<{ rss_mb: number; heap_used_mb: number; queued_events: number }> {
  const seen = (await Bun.file(logFile).text()).split("\n").filter((l) => l.includes(" memory ")).length;
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 1200; i++) {
    await Bun.sleep(25); // a full collection of a big heap on a busy machine takes seconds
    const lines = (await Bun.file(logFile).text()).split("\n").filter((l) => l.includes(" memory "));
    if (lines.length > seen) {
      const fields = Object.fromEntries([...lines.at(-1)!.matchAll(/(\w+)=([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));
      return fields as never;
    }
  }
  throw new Error("the server wrote no memory report");
}

/**
 * Waits until GET /health reports the start-up integrity check done: SQLite's quick_check reads the whole
 * file in a child process (a core for seconds on a large database), once per start.
 */
export async function waitForIntegrityCheck(url: string, timeoutMs = 600_000) {
  const t0 = performance.now();
  for (;;) {
    const h = (await (await fetch(`${url}/health`)).json()) as { integrity_check?: string };
    if (h.integrity_check !== "pending") return;
    if (performance.now() - t0 > timeoutMs) throw new Error("the start-up integrity check did not finish");
    await Bun.sleep(200);
  }
}

/**
 * Waits for a second in which `cpu` (µs used so far by the processes watched) grew by under a quarter of
 * a core: their background work is done (at most `limitSeconds`). Returns the seconds waited.
 */
export async function untilQuiet(cpu: () => number, limitSeconds = 300): Promise<number> {
  const t0 = performance.now();
  for (let last = cpu(), i = 0; i < limitSeconds; i++) {
    await Bun.sleep(1000);
    const now = cpu();
    if (now - last < 250_000) break;
    last = now;
  }
  return (performance.now() - t0) / 1000;
}
