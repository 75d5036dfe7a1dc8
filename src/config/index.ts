import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseRange } from "../lib/addresses";
import { CONFIG_KEYS, type ConfigKey, type KeySpec } from "./schema";
import { invalidPolicyEntry } from "../domain/outgoing-webhooks";
import { parseRateRule, type RateRule } from "../lib/rate-limit";
import { parseSchedule } from "../lib/schedule";
export { describePostgresUrl } from "../lib/postgres-url";

export class ConfigError extends Error {}

export interface Config {
  listen: { host: string; port: number };
  externalUrl: string; // never empty after load
  dataDir: string; // absolute
  development: boolean;
  logLevel: "debug" | "info" | "warn" | "error";
  defaultRealm: string;
  storage: {
    driver: "sqlite" | "postgres";
    /** The PostgreSQL database (driver postgres); a secret: print it only through `describePostgresUrl`. */
    url: string;
    synchronous: "full" | "normal";
    busyTimeoutMs: number;
  };
  /** PostgreSQL, several nodes: where the other nodes reach this one; empty: from the listening address. */
  cluster: { advertiseUrl: string };
  firstRealm: { name: string; ownerEmail: string; ownerName: string };
  limits: {
    maxMessageLength: number;
    maxTopicLength: number;
    maxStreamNameLength: number;
    maxStreamDescriptionLength: number;
    maxRequestBytes: number;
    maxApiRequestBytes: number;
    maxFileUploadMib: number;
  };
  events: {
    heartbeatSeconds: number;
    idleQueueTimeoutSeconds: number;
    gcIntervalSeconds: number;
    maxQueuesPerUser: number;
    maxHeldPollsPerUser: number;
    maxQueueEvents: number;
  };
  housekeeping: { intervalSeconds: number };
  uploads: { unreferencedGraceDays: number };
  rateLimit: { authFailures: number; authWindowSeconds: number; apiByUser: RateRule[]; apiByIp: RateRule[] };
  /** Direct HTTPS: both paths (absolute) or both empty. */
  tls: { cert: string; key: string };
  metrics: { enabled: boolean; allowLoopback: boolean };
  backup: { schedule: string; keep: number; dir: string };
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR ranges). */
  trustedProxies: string[];
  web: { dir: string; sessionDays: number };
  plugins: {
    codehosts: string[];
    startTimeoutMs: number;
    restartDelayMs: number;
    maxRestartDelayMs: number;
    healthyRunMs: number;
    shutdownGraceMs: number;
    healthIntervalMs: number;
    pollMs: number;
  };
  agent: { command: string[]; turnTimeoutSeconds: number; runIdleSeconds: number; historyMessages: number };
  email: EmailConfig;
  integrations: { maxPayloadBytes: number };
  outgoingWebhooks: { allow: string[]; deny: string[]; timeoutSeconds: number; maxAttempts: number; retryDelayMs: number };
}

export interface EmailConfig {
  enabled: boolean;
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  username: string;
  passwordFile: string; // absolute, or empty
  from: string; // never empty after load
  maxAttempts: number;
  retryDelaySeconds: number;
}

/** Flags given on the command line win over everything else. */
export interface ConfigOverrides {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: string | number;
}

export const envName = (key: string) => "CONFAB_" + key.replace(/\./g, "_").toUpperCase();

function coerce(key: string, spec: KeySpec, raw: unknown, from: string): unknown {
  const bad = (why: string): never => {
    throw new ConfigError(`config: ${key} (${from}): ${why}`);
  };
  switch (spec.type) {
    case "string":
      if (typeof raw !== "string") bad("must be a string");
      return raw;
    case "int": {
      const n = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n)) bad("must be an integer");
      const v = n as number;
      if (spec.min !== undefined && v < spec.min) bad(`must be at least ${spec.min}`);
      if (spec.max !== undefined && v > spec.max) bad(`must be at most ${spec.max}`);
      return v;
    }
    case "bool":
      if (raw === "true" || raw === "1") return true;
      if (raw === "false" || raw === "0") return false;
      if (typeof raw !== "boolean") bad("must be true or false");
      return raw;
    case "enum":
      if (typeof raw !== "string" || !spec.values!.includes(raw)) bad(`must be one of ${spec.values!.join(", ")}`);
      return raw;
    case "list":
      if (!Array.isArray(raw) || raw.some((x) => typeof x !== "string")) bad("must be a list of strings");
      return raw;
  }
}

/** Flattens nested YAML maps into dotted keys, refusing any key the table does not know. */
function flatten(obj: unknown, prefix: string, out: Map<string, unknown>, file: string) {
  if (obj === null || obj === undefined) return;
  if (typeof obj !== "object" || Array.isArray(obj)) throw new ConfigError(`config: ${prefix || "the file"} (${file}): must be a mapping`);
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (key in CONFIG_KEYS) out.set(key, v);
    else if (Object.keys(CONFIG_KEYS).some((c) => c.startsWith(key + "."))) flatten(v, key, out, file);
    else throw new ConfigError(`config: unknown key ${key} (${file})`);
  }
}

export function loadConfig(over: ConfigOverrides = {}, env: Record<string, string | undefined> = process.env): Config {
  const values = new Map<string, unknown>();
  for (const [k, spec] of Object.entries(CONFIG_KEYS)) values.set(k, spec.default);

  const file = over.config ?? env.CONFAB_CONFIG;
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new ConfigError(`config: cannot read ${file}: ${(e as Error).message}`);
    }
    let doc: unknown;
    try {
      // The YAML parser loads only when there is a file to read (about 3 ms and 4 MB at start otherwise).
      doc = (require("yaml") as typeof import("yaml")).parse(text);
    } catch (e) {
      throw new ConfigError(`config: ${file} is not valid YAML: ${(e as Error).message.split("\n")[0]}`);
    }
    const found = new Map<string, unknown>();
    flatten(doc, "", found, file);
    for (const [k, v] of found) values.set(k, coerce(k, CONFIG_KEYS[k as ConfigKey], v, file));
  }

  const known = new Set(Object.keys(CONFIG_KEYS).map(envName));
  for (const [name, v] of Object.entries(env)) {
    if (!name.startsWith("CONFAB_") || v === undefined) continue;
    // Variables that are not config keys but are read elsewhere (tests, the secrets key, ...).
    if (["CONFAB_CONFIG", "CONFAB_SECRETS_KEY", "CONFAB_OPENAPI"].includes(name) || name.startsWith("CONFAB_TEST_")) continue;
    if (!known.has(name)) throw new ConfigError(`config: unknown environment variable ${name}`);
    const key = Object.keys(CONFIG_KEYS).find((k) => envName(k) === name)!;
    const spec = CONFIG_KEYS[key as ConfigKey] as KeySpec;
    values.set(key, coerce(key, spec, spec.type === "list" ? safeJson(v, key) : v, name));
  }

  if (over.dataDir !== undefined) values.set("data_dir", over.dataDir);
  if (over.host !== undefined) values.set("listen.host", over.host);
  if (over.port !== undefined) values.set("listen.port", coerce("listen.port", CONFIG_KEYS["listen.port"], String(over.port), "--port"));

  const g = <K extends ConfigKey>(k: K) => values.get(k) as any;
  for (const k of ["outgoing_webhooks.allow", "outgoing_webhooks.deny"] as const) {
    const bad = invalidPolicyEntry(g(k));
    if (bad !== null) throw new ConfigError(`config: ${k}: ${JSON.stringify(bad)} is not a valid CIDR`);
  }
  const host = g("listen.host");
  const port = g("listen.port");
  const rules = (k: "rate_limit.api_by_user" | "rate_limit.api_by_ip") =>
    (g(k) as string[]).map((t) => parseRateRule(t) ?? bad(`config: ${k}: '${t}' is not a rule like "200/60s"`));
  if (!g("tls.cert") !== !g("tls.key")) bad("config: tls.cert and tls.key go together: set both or neither");
  if (g("backup.schedule") && !parseSchedule(g("backup.schedule"))) bad(`config: backup.schedule: '${g("backup.schedule")}' is not hourly, daily or HH:MM`);
  checkStorage(g("storage.driver"), g("storage.url"), g("backup.schedule"));
  for (const r of g("trusted_proxies")) if (!parseRange(r)) throw new ConfigError(`config: trusted_proxies: '${r}' is not an address or CIDR range`);
  // Without an external URL, the listening address; "every interface" is reachable as loopback.
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  const externalUrl = (g("external_url") || `${g("tls.cert") ? "https" : "http"}://${shown.includes(":") ? `[${shown}]` : shown}:${port}`).replace(/\/+$/, "");
  return {
    listen: { host, port },
    externalUrl,
    dataDir: resolve(g("data_dir")),
    development: g("development"),
    logLevel: g("log_level"),
    defaultRealm: g("default_realm"),
    storage: { driver: g("storage.driver"), url: g("storage.url"), synchronous: g("storage.synchronous"), busyTimeoutMs: g("storage.busy_timeout_ms") },
    cluster: { advertiseUrl: g("cluster.advertise_url").replace(/\/+$/, "") },
    firstRealm: { name: g("first_realm.name"), ownerEmail: g("first_realm.owner_email"), ownerName: g("first_realm.owner_name") },
    limits: {
      maxMessageLength: g("limits.max_message_length"),
      maxTopicLength: g("limits.max_topic_length"),
      maxStreamNameLength: g("limits.max_stream_name_length"),
      maxStreamDescriptionLength: g("limits.max_stream_description_length"),
      maxRequestBytes: g("limits.max_request_bytes"),
      maxApiRequestBytes: g("limits.max_api_request_bytes"),
      maxFileUploadMib: g("limits.max_file_upload_mib"),
    },
    events: {
      heartbeatSeconds: g("events.heartbeat_seconds"),
      idleQueueTimeoutSeconds: g("events.idle_queue_timeout_seconds"),
      gcIntervalSeconds: g("events.gc_interval_seconds"),
      maxQueuesPerUser: g("events.max_queues_per_user"),
      maxHeldPollsPerUser: g("events.max_held_polls_per_user"),
      maxQueueEvents: g("events.max_queue_events"),
    },
    housekeeping: { intervalSeconds: g("housekeeping.interval_seconds") },
    uploads: { unreferencedGraceDays: g("uploads.unreferenced_grace_days") },
    rateLimit: {
      authFailures: g("rate_limit.auth_failures"),
      authWindowSeconds: g("rate_limit.auth_window_seconds"),
      apiByUser: rules("rate_limit.api_by_user"),
      apiByIp: rules("rate_limit.api_by_ip"),
    },
    tls: { cert: g("tls.cert") && resolve(g("tls.cert")), key: g("tls.key") && resolve(g("tls.key")) },
    metrics: { enabled: g("metrics.enabled"), allowLoopback: g("metrics.allow_loopback") },
    backup: { schedule: g("backup.schedule"), keep: g("backup.keep"), dir: resolve(g("backup.dir") || join(resolve(g("data_dir")), "backups")) },
    trustedProxies: g("trusted_proxies"),
    web: { dir: g("web.dir") ? resolve(g("web.dir")) : "", sessionDays: g("web.session_days") },
    plugins: {
      codehosts: g("plugins.codehosts"),
      startTimeoutMs: g("plugins.start_timeout_ms"),
      restartDelayMs: g("plugins.restart_delay_ms"),
      maxRestartDelayMs: g("plugins.max_restart_delay_ms"),
      healthyRunMs: g("plugins.healthy_run_ms"),
      shutdownGraceMs: g("plugins.shutdown_grace_ms"),
      healthIntervalMs: g("plugins.health_interval_ms"),
      pollMs: g("plugins.poll_ms"),
    },
    agent: {
      command: g("agent.command"),
      turnTimeoutSeconds: g("agent.turn_timeout_seconds"),
      runIdleSeconds: g("agent.run_idle_seconds"),
      historyMessages: g("agent.history_messages"),
    },
    email: {
      enabled: g("email.enabled"),
      host: g("email.host"),
      port: g("email.port"),
      security: g("email.security"),
      username: g("email.username"),
      passwordFile: g("email.password_file") && resolve(g("email.password_file")),
      from: g("email.from") || `noreply@${new URL(externalUrl).hostname}`,
      maxAttempts: g("email.max_attempts"),
      retryDelaySeconds: g("email.retry_delay_seconds"),
    },
    integrations: { maxPayloadBytes: g("integrations.max_payload_bytes") },
    outgoingWebhooks: {
      allow: g("outgoing_webhooks.allow"),
      deny: g("outgoing_webhooks.deny"),
      timeoutSeconds: g("outgoing_webhooks.timeout_seconds"),
      maxAttempts: g("outgoing_webhooks.max_attempts"),
      retryDelayMs: g("outgoing_webhooks.retry_delay_ms"),
    },
  };
}

/** storage.url goes with driver postgres, and is a PostgreSQL URL; SQLite's scheduled backups are SQLite's alone. */
function checkStorage(driver: string, url: string, schedule: string) {
  if (driver === "sqlite") {
    if (url) bad("config: storage.url is for storage.driver postgres (the SQLite database is data_dir/confab.db)");
    return;
  }
  if (!url) bad("config: storage.driver postgres needs storage.url (postgres://user:password@host:port/database)");
  let u: URL | null = null;
  try {
    u = new URL(url);
  } catch {}
  // Never the URL itself in the message: it may hold the password.
  if (!u || (u.protocol !== "postgres:" && u.protocol !== "postgresql:") || !u.hostname || u.pathname.length < 2)
    bad("config: storage.url: not a PostgreSQL URL like postgres://user:password@host:port/database");
  if (schedule)
    bad(
      "config: backup.schedule backs up the SQLite file; with storage.driver postgres, back up PostgreSQL with its own tools (pg_dump, your provider's snapshots)",
    );
}

const bad = (msg: string): never => {
  throw new ConfigError(msg);
};

function safeJson(v: string, key: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    throw new ConfigError(`config: ${key}: must be a JSON list`);
  }
}

export { CONFIG_KEYS } from "./schema";

/** The one SQLite file, in the data directory. */
export const databasePath = (config: Config) => join(config.dataDir, "confab.db");
