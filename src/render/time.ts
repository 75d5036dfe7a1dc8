// Global times: <time:2024-01-01T10:00:00+01:00> → <time datetime="2024-01-01T09:00:00Z">…</time>.
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import { element } from "./html.ts";
import { matchAt } from "./syntax.ts";

const TIME_SYNTAX_RE = /<time:([^>]*)>/y;
// ISO 8601 date, optional time and offset; what Zulip's composer inserts.
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const UNIX_RE = /^-?\d+(?:\.\d+)?$/;

/**
 * The instant a time mention names, or null. ISO 8601 (no offset means UTC,
 * as in Zulip) and Unix seconds are understood; Zulip's server also accepts
 * free-form English dates through dateutil, which this does not.
 */
export function parseTimeMention(input: string): Date | null {
  const text = input.trim();
  if (UNIX_RE.test(text)) return validDate(Number(text) * 1000);
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = "Z"] = m;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0")) * (zone[0] === "-" ? -1 : 1);
  }
  const fields = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s));
  // Date.UTC rolls "2024-02-31" or "25:00" over (and reads year 99 as 1999) instead of refusing them.
  const inRange =
    fields.getUTCFullYear() === +y! &&
    fields.getUTCMonth() === +mo! - 1 &&
    fields.getUTCDate() === +d! &&
    fields.getUTCHours() === +h &&
    fields.getUTCMinutes() === +mi &&
    fields.getUTCSeconds() === +s;
  return inRange ? validDate(fields.getTime() + Math.round(Number(frac || "0") * 1000) - offsetMinutes * 60_000) : null;
}

const validDate = (ms: number): Date | null => (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms) : null);

/** Python's isoformat() with "+00:00" written "Z": whole seconds unless there is a fraction. */
function zuluIso(date: Date): string {
  const iso = date.toISOString();
  return date.getUTCMilliseconds() === 0 ? iso.replace(/\.\d{3}Z$/, "Z") : iso.replace(/Z$/, "000Z");
}

function timeRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const m = matchAt(TIME_SYNTAX_RE, state);
  if (!m) return false;
  const date = parseTimeMention(m[1]!);
  // Since Zulip 12 an unparsable time stays literal text.
  if (!date) return false;
  if (!silentMode) state.push("zulip_time", "time", 0).meta = { datetime: zuluIso(date), text: m[1]! };
  state.pos += m[0].length;
  return true;
}

export function timePlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "zulip_time", timeRule);
  md.renderer.rules.zulip_time = (tokens: Token[], idx: number) => {
    const { datetime, text } = tokens[idx]!.meta as { datetime: string; text: string };
    return element("time", { datetime }, text);
  };
}
