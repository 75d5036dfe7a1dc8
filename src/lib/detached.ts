import type { Logger } from "./log";

/** A rejection handler that logs the failure as `what`, with its stack. */
export const logFailure =
  (log: Logger, what: string) =>
  (e: unknown): void =>
    log.error(what, { error: String((e as Error)?.stack ?? e) });

/**
 * `fn` as a callback nobody awaits: a timer's, an event's, a listener's (app.listeners). Its failure, a
 * throw or a rejection, is logged as `what`; as an unhandled rejection it would reach standard error
 * outside the log and make the process exit with status 1 at its end.
 */
export function detached<A extends unknown[]>(log: Logger, what: string, fn: (...args: A) => unknown): (...args: A) => void {
  return (...args) => {
    (async () => await fn(...args))().catch(logFailure(log, what));
  };
}
