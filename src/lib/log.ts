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

/** Standard error, one write per event-loop turn: under load one system call carries many request lines. */
let pending = "";
function flush() {
  const text = pending;
  pending = "";
  if (text) process.stderr.write(text);
}
process.on("exit", flush);
const toStderr = (line: string) => {
  if (!pending) setImmediate(flush);
  pending += line + "\n";
};

export function createLogger(level: Level, write: (line: string) => void = toStderr): Logger {
  const min = ORDER[level];
  const emit = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    let line = `${new Date().toISOString()} ${lvl} ${msg}`;
    if (fields) for (const [k, v] of Object.entries(fields)) line += ` ${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`;
    write(line);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error"), enabled: (l) => ORDER[l] >= min };
}
