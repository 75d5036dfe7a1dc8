// Just after the server listens: PRAGMA quick_check in another process. A damaged file turns writes off
// (each change answers writesOff), makes GET /health red, and logs what to do; reads go on serving.
import { databasePath } from "../config";
import type { App } from "../context";
import { damaged, quickCheckInBackground } from "../db/integrity";
import { writesOff } from "../domain/errors";

/** Starts the check; the returned function stops it (at shutdown). */
export function startIntegrityCheck(app: App): () => void {
  if (app.health.integrity === "none") return () => {}; // PostgreSQL: no file of confab's to check
  const path = databasePath(app.config);
  const check = quickCheckInBackground(path);
  check.result.then(
    (problems) => {
      if (problems.length === 1 && problems[0] === "ok") {
        app.health.integrity = "ok";
        return;
      }
      app.health.integrity = "failed";
      app.writer.refuse(writesOff);
      app.log.error("integrity check failed; writes are off", { problem: problems.slice(0, 3).join("; "), todo: damaged(path, "quick_check failed").message });
    },
    (e) => app.log.warn("integrity check could not run", { error: String((e as Error)?.message ?? e) }),
  );
  return check.stop;
}
