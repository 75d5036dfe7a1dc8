// Agent runs: their states, the `run` object, and what a turn is told.
import type { AgentRunRow } from "../db/schema";

export const RUN_STATES = ["running", "done", "failed", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

export const toApiRun = (r: AgentRunRow) => ({
  id: r.id,
  state: r.state,
  requested_by: r.requestedBy,
  stream_id: r.channelId,
  topic: r.channelId === null ? null : r.topic,
  message_id: r.messageId,
  turns: r.turns,
  started: r.dateStarted,
  ended: r.dateEnded,
  exit_status: r.exitStatus,
});

export type ApiRun = ReturnType<typeof toApiRun>;

/** Variables of the server's own environment a turn keeps: where programs are, the home, the locale. */
export const isKeptServerVariable = (name: string) => name === "PATH" || name === "HOME" || name === "LANG" || name === "LANGUAGE" || name.startsWith("LC_");

/**
 * Splits a turn's output into messages of at most `max` characters, at line ends where it can;
 * at most `count` messages, the last one saying what was left out.
 */
export function outputMessages(text: string, max: number, count: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest && out.length < count) {
    if ([...rest].length <= max) {
      out.push(rest);
      rest = "";
      break;
    }
    const chars = [...rest];
    let cut = chars.slice(0, max).join("");
    const nl = cut.lastIndexOf("\n");
    if (nl > max / 2) cut = cut.slice(0, nl);
    out.push(cut.trimEnd());
    rest = rest.slice(cut.length).trimStart();
  }
  if (rest) {
    const note = "\n\n*(output cut short)*";
    const last = [...out.pop()!];
    out.push(last.slice(0, Math.max(0, max - note.length)).join("") + note);
  }
  return out;
}
