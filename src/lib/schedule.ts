// When a recurring job runs: "hourly", "daily" (03:00) or a time of day "HH:MM", in local time.

export type Schedule = { every: "hour" } | { at: { hour: number; minute: number } };

export function parseSchedule(text: string): Schedule | null {
  const t = text.trim().toLowerCase();
  if (t === "hourly") return { every: "hour" };
  if (t === "daily") return { at: { hour: 3, minute: 0 } };
  const m = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
  return { at: { hour: Number(m[1]), minute: Number(m[2]) } };
}

/** The first time after `now` (ms) the schedule runs. */
export function nextRun(s: Schedule, now: number): number {
  const d = new Date(now);
  if ("every" in s) {
    d.setMinutes(0, 0, 0);
    d.setHours(d.getHours() + 1);
    return d.getTime();
  }
  d.setHours(s.at.hour, s.at.minute, 0, 0);
  if (d.getTime() <= now) d.setDate(d.getDate() + 1);
  return d.getTime();
}
