// Reports this tab's presence every minute (active when the person used it lately, else idle) and
// takes the answer's presence of everyone (the events only carry changes).
import { api } from "../api/client";
import { presence, type Presence } from "./state";

let lastInput = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
for (const ev of ["keydown", "pointerdown", "focus"]) addEventListener(ev, () => (lastInput = Date.now()), { passive: true });

async function report(newInput: boolean) {
  const active = document.hasFocus() && Date.now() - lastInput < 5 * 60_000;
  try {
    const r = await api.post("users/me/presence", { status: active ? "active" : "idle", new_user_input: newInput, slim_presence: true });
    if (r.presences) presence.value = new Map(Object.entries(r.presences as Record<string, Presence>).map(([k, v]) => [Number(k), v]));
  } catch {
    // Presence is best effort; the next minute tries again.
  }
}

export function startPresence() {
  clearInterval(timer);
  void report(true);
  timer = setInterval(() => report(Date.now() - lastInput < 60_000), 60_000);
}
export const stopPresence = () => clearInterval(timer);
