import type { Command } from "commander";
import { createApp } from "../src/app";
import type { App } from "../src/context";
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from "../src/config";
import { createLogger } from "../src/lib/log";
import { findRealmByStringId } from "../src/store/realms";
import { defaultRealm } from "../src/http/realm";
import type { RealmRow } from "../src/db/schema";
import type { Revocation } from "../src/context";
import { tellServer } from "../src/runtime/control";

/** Every command takes --config and --data-dir. */
export const withCommon = (cmd: Command) =>
  cmd.option("--config <path>", "YAML config file").option("--data-dir <dir>", "data directory (overrides the config)");

export const configFrom = (opts: ConfigOverrides): Config => loadConfig(opts);

/**
 * Opens the app for a one-off command: no HTTP, no runtime, each change committed at once. What the
 * command revokes is collected in `revoked`, for `usingApp` to tell the running server.
 */
export async function openApp(opts: ConfigOverrides, revoked: Revocation[] = []): Promise<App> {
  const config = configFrom(opts);
  return await createApp(config, { batching: false, log: createLogger("warn"), onRevoke: (r) => revoked.push(r) });
}

export async function realmOption(app: App, stringId: string | undefined): Promise<RealmRow> {
  if (stringId === undefined) return await defaultRealm(app);
  const realm = await findRealmByStringId(app.db, stringId);
  if (!realm) throw new CliError(`no realm with subdomain '${stringId}'`);
  return realm;
}

export class CliError extends Error {}

/** Runs a command body; any failure is one line on stderr and a non-zero exit (2 for a bad config). */
export function action<A extends unknown[]>(fn: (...args: A) => unknown) {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      process.stderr.write(`confab: ${msg.split("\n")[0]}\n`);
      process.exit(e instanceof ConfigError ? 2 : 1);
    }
  };
}

export async function readStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.replace(/\r?\n$/, "");
}

/**
 * Opens the app, runs `fn`, always closes: the body of most commands. Revocations it made, committed by
 * then, go to a server running on the same data directory (runtime/control.ts), which acts on them at once.
 */
export async function usingApp<T>(opts: ConfigOverrides, fn: (app: App) => T | Promise<T>): Promise<T> {
  const revoked: Revocation[] = [];
  const app = await openApp(opts, revoked);
  try {
    return await fn(app);
  } finally {
    app.close();
    if (!app.node) await tellServer(app.config.dataDir, revoked); // PostgreSQL: the event bus told every node
  }
}

/** --config, --data-dir and --realm. */
export const withRealmOption = (cmd: Command) => withCommon(cmd).option("--realm <subdomain>", "the realm (default: the default realm)");
