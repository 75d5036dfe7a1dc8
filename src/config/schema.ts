// Every config key, once: its type, default and meaning. This table drives parsing of the YAML file,
// CONFAB_* environment overrides, validation, and the documentation in config.example.yaml.
export type KeyType = "string" | "int" | "bool" | "enum" | "list";

export interface KeySpec {
  type: KeyType;
  default: unknown;
  doc: string;
  values?: readonly string[]; // for enum
  min?: number;
  max?: number;
}

export const CONFIG_KEYS = {
  "listen.host": { type: "string", default: "127.0.0.1", doc: "Address to listen on (0.0.0.0 for every interface)." },
  "listen.port": { type: "int", default: 9991, min: 0, max: 65535, doc: "TCP port to listen on (0 picks a free one)." },
  external_url: {
    type: "string",
    default: "",
    doc: "The URL people and clients use to reach this server, e.g. https://chat.example.com. Empty: http://<listen.host>:<listen.port>, with 127.0.0.1 for 0.0.0.0. Realms other than the default live on subdomains of its host.",
  },
  data_dir: { type: "string", default: "./data", doc: "Directory holding the SQLite database and the secrets key." },
  development: {
    type: "bool",
    default: false,
    doc: "Development mode: enables POST /dev_fetch_api_key (anyone can fetch any user's key). Never on a real server.",
  },
  log_level: {
    type: "enum",
    values: ["debug", "info", "warn", "error"],
    default: "info",
    doc: "Least severe level logged to standard error; info and debug add one line per request.",
  },
  default_realm: {
    type: "string",
    default: "",
    doc: "string_id (subdomain) of the realm served when the request's host names no realm. Empty: the first realm.",
  },
  "storage.driver": {
    type: "enum",
    values: ["sqlite", "postgres"],
    default: "sqlite",
    doc: "Where confab keeps its data. sqlite: the file confab.db in data_dir, nothing else needed. postgres: the PostgreSQL database storage.url names, which several confab nodes may share (docs/scaling.md). Files (uploads, avatars, emoji, the secrets key) stay in data_dir either way.",
  },
  "storage.url": {
    type: "string",
    default: "",
    doc: "With storage.driver postgres: the database, postgres://user:password@host:port/database. A secret: better given as CONFAB_STORAGE_URL than written in this file; confab never prints its password.",
  },
  "storage.synchronous": {
    type: "enum",
    values: ["full", "normal"],
    default: "full",
    doc: "SQLite synchronous mode (the database is in WAL mode). full: every write confab has answered survives a crash of confab, of the OS, or power loss. normal: answered writes survive a crash of confab; power loss or an OS crash may undo the last writes (the database stays intact). normal writes faster.",
  },
  "storage.busy_timeout_ms": { type: "int", default: 5000, min: 0, doc: "How long a writer waits for the database lock (e.g. while a CLI command writes)." },
  "cluster.advertise_url": {
    type: "string",
    default: "",
    doc: "With storage.driver postgres and several nodes: the URL at which the other confab nodes reach this one (one internal hop forwards a long-poll to the node holding its queue). Empty: http://<listen.host>:<listen.port>, with this machine's host name for 0.0.0.0 or ::.",
  },
  "first_realm.name": { type: "string", default: "Confab", doc: "Name of the organization created on the first start." },
  "first_realm.owner_email": { type: "string", default: "owner@confab.localhost", doc: "Email of that organization's owner." },
  "first_realm.owner_name": { type: "string", default: "Owner", doc: "Full name of that owner." },
  "limits.max_message_length": { type: "int", default: 10000, min: 1, doc: "Longest message content, in characters." },
  "limits.max_topic_length": { type: "int", default: 60, min: 1, doc: "Longest topic name, in characters." },
  "limits.max_stream_name_length": { type: "int", default: 60, min: 1, doc: "Longest channel name, in characters." },
  "limits.max_stream_description_length": { type: "int", default: 1024, min: 1, doc: "Longest channel description, in characters." },
  "limits.max_request_bytes": {
    type: "int",
    default: 26214400,
    min: 1024,
    doc: "Largest request body accepted by the endpoints that take files or imports (avatars, custom emoji, imports); POST /user_uploads takes max_file_upload_mib plus 1 MiB if that is larger.",
  },
  "limits.max_api_request_bytes": {
    type: "int",
    default: 1048576,
    min: 1024,
    doc: "Largest request body accepted by every other API call. A larger body is refused (413) before it is read.",
  },
  "limits.max_file_upload_mib": {
    type: "int",
    default: 25,
    min: 1,
    doc: "Largest file POST /user_uploads accepts, in MiB (max_file_upload_size_mib in register).",
  },
  "uploads.unreferenced_grace_days": {
    type: "int",
    default: 21,
    min: 0,
    doc: "An uploaded file that no message links (never sent, or its last message deleted or expired) is deleted by housekeeping after this many days.",
  },
  "events.heartbeat_seconds": { type: "int", default: 60, min: 1, doc: "A held GET /events answers with a heartbeat after this long." },
  "events.idle_queue_timeout_seconds": { type: "int", default: 600, min: 1, doc: "An event queue nobody fetched from for this long is collected." },
  "events.gc_interval_seconds": { type: "int", default: 10, min: 1, doc: "How often idle queues are looked for." },
  "events.max_queues_per_user": {
    type: "int",
    default: 100,
    min: 1,
    doc: "Most event queues one user may hold; registering another drops that user's least recently used queue.",
  },
  "events.max_held_polls_per_user": {
    type: "int",
    default: 20,
    min: 1,
    doc: "Most GET /events one user may have waiting at once; another answers the longest-waiting one with a heartbeat.",
  },
  "events.max_queue_events": {
    type: "int",
    default: 100_000,
    min: 1,
    doc: "Most undelivered events a queue holds while no client is polling it; past it the queue is dropped, as Zulip drops a queue too far behind, and its client registers again.",
  },
  "housekeeping.interval_seconds": {
    type: "int",
    default: 3600,
    min: 60,
    doc: "How often periodic housekeeping runs: deleting messages older than their channel's (or the organization's) message_retention_days and moving members whose accounts passed waiting_period_threshold into role:fullmembers.",
  },
  "rate_limit.auth_failures": {
    type: "int",
    default: 10,
    min: 1,
    doc: "Failed authentications allowed per client address, and per account, in each window. Past it, further failing attempts get 429; a valid API key is always accepted, and so is a valid password unless its own client address is over the limit.",
  },
  "rate_limit.api_by_user": {
    type: "list",
    default: ["200/60s"],
    doc: 'API requests each user (bots included) may make, as Zulip limits them: rules "<requests>/<seconds>s", all enforced. Past one, requests get 429 RATE_LIMIT_HIT with Retry-After; every answer carries X-RateLimit-Limit, -Remaining and -Reset. Empty: no limit. The CLI works on the database directly and is never limited.',
  },
  "rate_limit.api_by_ip": {
    type: "list",
    default: ["100/60s"],
    doc: "Unauthenticated API requests each client address may make (rules as for api_by_user). Behind a proxy, list it in trusted_proxies so each client counts on its own.",
  },
  "rate_limit.auth_window_seconds": { type: "int", default: 60, min: 1, doc: "The window for rate_limit.auth_failures." },
  trusted_proxies: {
    type: "list",
    default: [],
    doc: 'Addresses or CIDR ranges of reverse proxies in front of confab, e.g. ["127.0.0.1", "10.0.0.0/8"]. Only a request from one of these has its X-Forwarded-For believed: the client is the last address there that is not itself a trusted proxy. Otherwise the client is the connection\'s peer. Failed-login throttling counts per client address, so behind a proxy list it here. Set through the environment as a JSON list.',
  },
  "tls.cert": {
    type: "string",
    default: "",
    doc: "A PEM certificate (chain) file: with tls.key, confab serves HTTPS itself, for those without a reverse proxy. Empty: plain HTTP.",
  },
  "tls.key": { type: "string", default: "", doc: "The PEM private key file for tls.cert." },
  "metrics.enabled": { type: "bool", default: true, doc: "Serve GET /metrics (Prometheus text format)." },
  "metrics.allow_loopback": {
    type: "bool",
    default: true,
    doc: "Answer GET /metrics to any request from this machine (127.0.0.1, ::1) without credentials. From elsewhere (and always when false) it needs an organization administrator's HTTP Basic credentials.",
  },
  "backup.schedule": {
    type: "string",
    default: "",
    doc: 'When the running server backs itself up: "hourly", "daily" (at 03:00 local time), or a time of day "HH:MM". Each backup is verified like `confab backup`. Empty: never (back up with `confab backup`).',
  },
  "backup.keep": { type: "int", default: 7, min: 1, doc: "Scheduled backups kept; older ones are deleted after a new one is verified." },
  "backup.dir": { type: "string", default: "", doc: "Where scheduled backups go. Empty: <data_dir>/backups." },
  "web.dir": {
    type: "string",
    default: "",
    doc: "A directory whose files override the web client's embedded ones, path for path (branding, or a client being developed: a build of src/web). Empty: only the embedded client.",
  },
  "web.session_days": { type: "int", default: 14, min: 1, doc: "How long a browser sign-in lasts before the web client asks for the password again." },
  "plugins.codehosts": {
    type: "list",
    default: ["github=https://github.com", "gitlab=https://gitlab.com", "codeberg=https://codeberg.org"],
    doc: "Code hosts plugins may be installed from, each name=base URL; a plugin's source <name>/<owner>/<repository> is cloned over git from <base URL>/<owner>/<repository>.",
  },
  "plugins.start_timeout_ms": {
    type: "int",
    default: 30000,
    min: 1,
    doc: "A plugin process that makes no authenticated API call within this long after starting has failed to start.",
  },
  "plugins.restart_delay_ms": {
    type: "int",
    default: 1000,
    min: 0,
    doc: "Delay before restarting a failed plugin process; it doubles with each failure in a row.",
  },
  "plugins.max_restart_delay_ms": { type: "int", default: 60000, min: 0, doc: "The longest delay between restarts." },
  "plugins.healthy_run_ms": {
    type: "int",
    default: 60000,
    min: 1,
    doc: "A plugin that stays up this long after answering has its count of failures in a row reset.",
  },
  "plugins.shutdown_grace_ms": {
    type: "int",
    default: 5000,
    min: 0,
    doc: "At shutdown (or a restart), how long a plugin process has after SIGTERM before it gets SIGKILL.",
  },
  "plugins.health_interval_ms": { type: "int", default: 10000, min: 100, doc: "How often a remote plugin's health check is called." },
  "plugins.poll_ms": {
    type: "int",
    default: 1000,
    min: 10,
    doc: "How often the plugin host looks for changes made outside this process (the CLI) and for waiting plugins whose requirements arrived.",
  },
  "email.enabled": {
    type: "bool",
    default: false,
    doc: "Send email: invitations, password resets, email address confirmations and missed-message notifications. Off: nothing is mailed, and whatever needs mail says that email is not configured.",
  },
  "email.host": { type: "string", default: "", doc: "The SMTP server's host name, e.g. smtp.gmail.com." },
  "email.port": { type: "int", default: 587, min: 1, max: 65535, doc: "The SMTP server's port: usually 587 with starttls, 465 with tls, 25 with none." },
  "email.security": {
    type: "enum",
    values: ["starttls", "tls", "none"],
    default: "starttls",
    doc: "starttls: connect in plain text, then require STARTTLS before anything is sent. tls: TLS from the first byte (port 465). none: no encryption (only for a relay on this machine or a trusted network).",
  },
  "email.username": { type: "string", default: "", doc: "SMTP login; empty: send without authenticating." },
  "email.password_file": {
    type: "string",
    default: "",
    doc: "A file holding the SMTP password (its first line), kept out of the config file and the environment.",
  },
  "email.from": {
    type: "string",
    default: "",
    doc: 'The sender of confab\'s mail, e.g. "Acme Chat <chat@example.com>". Empty: noreply@ the host of external_url.',
  },
  "email.max_attempts": {
    type: "int",
    default: 8,
    min: 1,
    doc: "A message the SMTP server keeps refusing is given up after this many attempts (then logged and listed by `confab email outbox`).",
  },
  "email.retry_delay_seconds": {
    type: "int",
    default: 60,
    min: 1,
    doc: "Delay before the second attempt at a message; it doubles with each further attempt, up to an hour.",
  },
  "agent.command": {
    type: "list",
    default: [],
    doc: 'The organization\'s agent: the program and its arguments, e.g. ["bun", "/opt/confab/examples/echo-agent.ts"]. Each turn of a run starts it with the conversation as JSON on standard input and the organization\'s secrets in its environment; what it writes to standard output is posted in the conversation. Empty: the agent is off (and says so when mentioned). Set through the environment as a JSON list.',
  },
  "agent.turn_timeout_seconds": { type: "int", default: 600, min: 1, doc: "A turn still running after this long is stopped and its conversation told so." },
  "agent.run_idle_seconds": {
    type: "int",
    default: 300,
    min: 0,
    doc: "After a turn that ended well, the run stays open this long: mentioning the agent in that conversation meanwhile is the run's next turn. Then the run is done.",
  },
  "agent.history_messages": { type: "int", default: 200, min: 1, doc: "How many of the conversation's latest messages a turn gets on standard input." },
  "integrations.max_payload_bytes": { type: "int", default: 5242880, min: 1024, doc: "Largest body an incoming webhook (/api/v1/external/...) accepts." },
  "outgoing_webhooks.allow": {
    type: "list",
    default: [],
    doc: 'Addresses outgoing webhook bots may call even when deny or the built-in refusals would stop them: CIDRs ("10.0.0.0/8"), addresses or host names. Private networks are allowed by default; this server\'s own address and link-local addresses (cloud metadata, 169.254.0.0/16, fe80::/10) are refused unless listed here.',
  },
  "outgoing_webhooks.deny": {
    type: "list",
    default: [],
    doc: "Addresses outgoing webhook bots may not call: CIDRs, addresses or host names (a host name's resolved addresses are checked too).",
  },
  "outgoing_webhooks.timeout_seconds": {
    type: "int",
    default: 10,
    min: 1,
    max: 300,
    doc: "How long a call to an outgoing webhook's service may take before it counts as failed.",
  },
  "outgoing_webhooks.max_attempts": {
    type: "int",
    default: 4,
    min: 1,
    max: 20,
    doc: "Calls per triggering message (the first and its retries, with growing delays) before the bot gives up and its owner is told.",
  },
  "outgoing_webhooks.retry_delay_ms": {
    type: "int",
    default: 2000,
    min: 10,
    doc: "Delay before the first retry of a failed call; it doubles with each retry.",
  },
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
