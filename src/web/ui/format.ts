// Dates, times and emoji characters, as the user's settings ask.
import { settings } from "../store/state";

export function timeOf(ts: number): string {
  const d = new Date(ts * 1000);
  const h24 = settings.value.twenty_four_hour_time;
  return d.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit", hour12: h24 === undefined ? undefined : !h24 });
}

export function dayOf(ts: number): string {
  const d = new Date(ts * 1000);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  if (d.toDateString() === today.toDateString()) return "Today";
  if (d.toDateString() === yesterday.toDateString()) return "Yesterday";
  return d.toLocaleDateString(undefined, { weekday: "short", year: d.getFullYear() === today.getFullYear() ? undefined : "numeric", month: "short", day: "numeric" });
}

export const fullDate = (ts: number) => new Date(ts * 1000).toLocaleString();

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
