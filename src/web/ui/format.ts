// Dates, times and emoji characters, as the user's settings ask. A message list formats hundreds of
// timestamps per render, and each `toLocale*String(…, options)` call builds a new Intl formatter
// (tens of microseconds): the formatters are made once, and day labels are kept per calendar day.
import { settings } from "../store/state";

const timeFormats = new Map<boolean | undefined, Intl.DateTimeFormat>();
export function timeOf(ts: number): string {
  const h24 = settings.value.twenty_four_hour_time;
  let f = timeFormats.get(h24);
  if (!f) timeFormats.set(h24, (f = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", hour12: h24 === undefined ? undefined : !h24 })));
  return f.format(ts * 1000);
}

/** The local calendar day of a time, as a number (20261125), for comparing and caching. */
export const dayNumber = (d: Date) => d.getFullYear() * 10_000 + (d.getMonth() + 1) * 100 + d.getDate();

const dayThisYear = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric" });
const dayOtherYear = new Intl.DateTimeFormat(undefined, { weekday: "short", year: "numeric", month: "short", day: "numeric" });
const dayLabels = new Map<number, string>();
let labelsMadeOn = 0; // "Today" and "Yesterday" move at midnight: the cache is for one day

export function dayOf(ts: number): string {
  const d = new Date(ts * 1000);
  const key = dayNumber(d);
  const now = new Date();
  const today = dayNumber(now);
  if (today !== labelsMadeOn) {
    dayLabels.clear();
    labelsMadeOn = today;
  }
  let label = dayLabels.get(key);
  if (label === undefined) {
    if (key === today) label = "Today";
    else if (key === dayNumber(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1))) label = "Yesterday";
    else label = (d.getFullYear() === now.getFullYear() ? dayThisYear : dayOtherYear).format(d);
    dayLabels.set(key, label);
  }
  return label;
}

const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
export const fullDate = (ts: number) => fullFormat.format(ts * 1000);

export function ago(ts: number): string {
  const s = Date.now() / 1000 - ts;
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return dayOf(ts);
}

/** The character(s) of a Unicode emoji in Zulip's code format ("1f44d", "1f937-200d-2640"). */
export const emojiChar = (code: string) => {
  try {
    return String.fromCodePoint(...code.split("-").map((h) => parseInt(h, 16)));
  } catch {
    return "";
  }
};
