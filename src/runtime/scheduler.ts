// Sends scheduled messages and reminders when due: at start (anything that fell due while the server
// was down) and then every half second, so each goes out within a second of its time. Rows are marked
// sent in the transaction that sends them, so a restart never sends one twice.
import { deliverDue } from "../actions/scheduled-messages";
import type { App } from "../context";

export async function startScheduler(app: App, intervalMs = 500): Promise<() => void> {
  const run = async () => {
    try {
      await deliverDue(app);
    } catch (e) {
      app.log.error("scheduled delivery failed", { error: String((e as Error)?.message ?? e) });
    }
  };
  await run();
  const timer = setInterval(run, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
