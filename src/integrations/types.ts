// What every incoming-webhook integration is: a pure function from the request (headers, parsed body,
// URL parameters) to the messages to post, or the name of an event it does not handle. No I/O here;
// actions/integrations.ts authenticates, filters events and sends.

export interface WebhookInput {
  headers: Headers;
  /** The parsed body: JSON, or for form bodies an object of the fields. */
  payload: any;
  /** The URL's query parameters (stream, topic, branches, …). */
  params: URLSearchParams;
}

export interface WebhookMessage {
  topic: string;
  content: string;
  /** This message's own event type, when one request carries several (Grafana's alerts). */
  event?: string;
}

/** `messages` may be empty: the event is known but nothing is posted (e.g. a branch not in `branches`). */
export type WebhookResult = { event: string; messages: WebhookMessage[] } | { unsupported: string };

export interface UrlOption {
  key: string;
  label: string;
  input_type: string;
}

export interface Integration {
  /** The URL segment: /api/v1/external/<name>. */
  name: string;
  displayName: string;
  /** One line for `confab integrations` and the README. */
  description: string;
  /** Event types `only_events` / `exclude_events` match against (register's all_event_types); null: no filtering. */
  eventTypes: readonly string[] | null;
  /** Optional URL parameters the bot page offers (Zulip's url_options). */
  urlOptions?: readonly UrlOption[];
  /** The header that names the event; a request without it is refused (Zulip's MISSING_HTTP_EVENT_HEADER). */
  eventHeader?: string;
  handle(input: WebhookInput): WebhookResult;
}

export const unsupported = (event: string): WebhookResult => ({ unsupported: event });
export const post = (event: string, ...messages: WebhookMessage[]): WebhookResult => ({ event, messages });

/** The branches=a,b URL option of git forges: Zulip's filter for push events. */
export const BRANCHES_OPTION: UrlOption = { key: "branches", label: "Filter by branches (comma-separated list)", input_type: "string" };

export function branchWanted(params: URLSearchParams, branch: string): boolean {
  const list = params.get("branches");
  if (list === null || list.trim() === "") return true;
  return list
    .split(",")
    .map((b) => b.trim())
    .includes(branch);
}

// ---- Reading payloads: a missing or mistyped field is the sender's mistake, named precisely. ----

/** A payload that is not what the integration expects; the route answers 400 with this message. */
export class PayloadError extends Error {}

type Key = string | number;
const pathName = (path: Key[]) => "payload" + path.map((k) => `[${JSON.stringify(k)}]`).join("");

function at(root: unknown, path: Key[]): unknown {
  let v: any = root;
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== "object" || !(path[i]! in v)) throw new PayloadError(`${pathName(path.slice(0, i + 1))} is missing`);
    v = v[path[i]!];
  }
  return v;
}

function optAt(root: unknown, path: Key[]): unknown {
  let v: any = root;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[k];
  }
  return v ?? undefined;
}

export function str(root: unknown, ...path: Key[]): string {
  const v = at(root, path);
  if (typeof v !== "string") throw new PayloadError(`${pathName(path)} is not a string`);
  return v;
}

export function num(root: unknown, ...path: Key[]): number {
  const v = at(root, path);
  if (typeof v !== "number") throw new PayloadError(`${pathName(path)} is not a number`);
  return v;
}

export function list(root: unknown, ...path: Key[]): any[] {
  const v = at(root, path);
  if (!Array.isArray(v)) throw new PayloadError(`${pathName(path)} is not a list`);
  return v;
}

export function obj(root: unknown, ...path: Key[]): Record<string, any> {
  const v = at(root, path);
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new PayloadError(`${pathName(path)} is not a dict`);
  return v as Record<string, any>;
}

/** A string (or number, as text) if present and not null; otherwise undefined. */
export function optStr(root: unknown, ...path: Key[]): string | undefined {
  const v = optAt(root, path);
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

export const optList = (root: unknown, ...path: Key[]): any[] => {
  const v = optAt(root, path);
  return Array.isArray(v) ? v : [];
};

export const optObj = (root: unknown, ...path: Key[]): Record<string, any> | undefined => {
  const v = optAt(root, path);
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, any>) : undefined;
};

// ---- Markdown ----

/** Text that renders as itself: Markdown's punctuation escaped. */
export const esc = (s: string) => s.replace(/([\\`*_[\]<>|~$])/g, "\\$1");
/** A link, or the plain text when there is no URL. */
export const link = (text: string, url: string | undefined) => (url ? `[${esc(text)}](${url.replace(/[()\s]/g, encodeURIComponent)})` : esc(text));
/** A value in backticks (branch, tag, file name). */
export const code = (s: string) => "`" + s.replace(/`/g, "'") + "`";
/** A quoted block, for bodies of issues, comments and releases: kept short. */
export function quote(s: string | undefined, max = 500): string {
  const t = (s ?? "").trim();
  if (!t) return "";
  const cut = t.length > max ? t.slice(0, max).trimEnd() + "…" : t;
  return "\n\n" + "```quote\n" + cut.replace(/```/g, "'''") + "\n```";
}
/** "- key: value" lines. */
export const bullets = (pairs: [string, string][]) => pairs.map(([k, v]) => `- ${k}: ${v}`).join("\n");
