// Wakes the email worker (runtime/email.ts) when mail is queued, so it goes out at once instead of at
// the next poll. Actions call `mailQueued`; the wake-up runs after the COMMIT, or never.
import type { App } from "../context";

const wakers = new WeakMap<App, () => void>();

export const onMailQueued = (app: App, wake: () => void) => wakers.set(app, wake);

export function mailQueued(app: App) {
  const wake = wakers.get(app);
  if (wake) app.writer.settled().then(wake, () => {});
}
