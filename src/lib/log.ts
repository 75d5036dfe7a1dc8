import { writeSync } from "node:fs";

// One line per record: "2026-11-23T03:40:00.123Z info message key=value ...". Callers never pass
// passwords, API keys or secret values; request lines carry method, path, status, time and user id only.
export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  enabled(level: Level): boolean;
}

/**
 * Standard error, written in batches: at most every 50 ms (or per 64 KB), and at exit. One line per
 * request cost a system call per request; batched, logging is a small part of a request's cost. The
 * batch goes out in one blocking write(2), as Node writes standard error to files and pipes: through
 * the process.stderr stream it cost a third of a small request's CPU here.
 */
let pending = "";
let timer: ReturnType<typeof setTimeout> | null = null;
function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  const text = pending;
  pending = "";
  // A log that cannot be written (a full disk) loses lines, never the server.
  try {
    if (text) writeSync(2, text);
  } catch {}
}
process.on("exit", flush);
const toStderr = (line: string) => {
  pending += line + "\n";
  if (pending.length >= 65536) flush();
  else if (!timer) (timer = setTimeout(flush, 50)).unref();
};

const plain = /^[^\s"]+$/;

// Under load many lines share a millisecond: format its timestamp once.
let stampMs = 0;
let stamp = "";
function timestamp(): string {
  const ms = Date.now();
  if (ms !== stampMs) (stampMs = ms), (stamp = new Date(ms).toISOString());
  return stamp;
}

export function createLogger(level: Level, write: (line: string) => void = toStderr): Logger {
  const min = ORDER[level];
  const emit = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    let line = `${timestamp()} ${lvl} ${msg}`;
    for (const k in fields) {
      const v = fields[k];
      line += ` ${k}=${typeof v === "number" || (typeof v === "string" && plain.test(v)) ? v : JSON.stringify(v)}`;
    }
    write(line);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error"), enabled: (l) => ORDER[l] >= min };
}
