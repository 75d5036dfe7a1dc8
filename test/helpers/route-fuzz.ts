// Requests generated from the route table: every endpoint, its declared parameters (and a few it does not
// declare), with values a client might send and values an attacker would — wrong types, huge numbers, NUL
// bytes, deep JSON, long strings, odd Unicode, ids of things that exist and do not. Shared by the fuzz test
// (test/api/fuzz-routes.test.ts) and its long run (bench/fuzz.ts).
import fc from "fast-check";
import type { Endpoint } from "../../src/http/endpoint";
import type { Param } from "../../src/domain/params";

/** Who sends a request: each role of the organization, a bot, or nobody. */
export const CALLERS = ["owner", "admin", "moderator", "member", "guest", "bot", "anon"] as const;
export type Caller = (typeof CALLERS)[number];

export interface FuzzRequest {
  caller: Caller;
  method: string;
  /** The route's template, for reports. */
  route: string;
  /** The path after /api/v1, template filled in (already percent-encoded). */
  path: string;
  params: [string, string][];
  /**
   * How the parameters travel: query/form like Zulip clients (`twice`: each one repeated), a JSON body,
   * a broken one or a bare JSON value, multipart fields with a file beside them.
   */
  body: "form" | "twice" | "json" | "badJson" | "jsonScalar" | "multipart";
}

const deep = (d: number, objects: boolean) => (objects ? '{"a":'.repeat(d) + "1" + "}".repeat(d) : "[".repeat(d) + "]".repeat(d));

/** Text that has broken parsers elsewhere: numbers past every width, NUL, lone surrogates, bidi, paths. */
const HOSTILE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "null",
  "undefined",
  "[]",
  "{}",
  "[null]",
  '{"":null}',
  "-1",
  "0",
  "-0",
  "1.5",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "9007199254740993",
  "99999999999999999999999999",
  "-9223372036854775809",
  "0x10",
  "1_000",
  "true",
  "True",
  '"x"',
  "\ud800",
  "\udfff\ud800",
  "\u202e\u2066evil",
  "🧑🏽‍🦰".repeat(50),
  "\u0301".repeat(500),
  "e\u0301",
  "ﬃ",
  "İ",
  "\uFEFF",
  "../../../../etc/passwd",
  "%00",
  "%",
  "%zz",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\r\nX-Injected: 1",
  "*",
  "#**general**",
  "@**all**",
  ":smile:",
  "```",
  deep(200, false),
  deep(200, true),
  deep(5000, false),
  "x".repeat(70_000),
  "é".repeat(20_000),
];

const hostileInt = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.constantFrom(2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e308),
  fc.double({ noNaN: false }),
);

/** A value for a parameter of any type. `ids` are numbers worth trying (things that exist). */
function hostileValue(ids: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 2, arbitrary: hostileInt.map(String) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.array(fc.oneof(ids, hostileInt), { maxLength: 20 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 4000 }).map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => i))) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }).map((v) => JSON.stringify(v)) },
  );
}

/** A value of roughly the declared type, so a request gets past parsing and reaches the action. */
function plausibleValue(prm: Param<unknown>, ids: fc.Arbitrary<number>, words: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const d = prm.describe;
  if (d === "integer") return ids.map(String);
  if (d === "boolean") return fc.constantFrom("true", "false");
  if (d === "string" || d === "JSON or text") return fc.oneof(words, fc.string({ maxLength: 30 }), ids.map(String));
  if (d.startsWith("one of ")) return fc.constantFrom(...d.slice(7).split(", "));
  if (d.startsWith("list of integer")) return fc.array(ids, { maxLength: 5 }).map((v) => JSON.stringify(v));
  if (d.startsWith("list of string")) return fc.array(words, { maxLength: 4 }).map((v) => JSON.stringify(v));
  if (d.startsWith("list of"))
    return fc.array(fc.dictionary(words, fc.oneof(ids, words, fc.boolean()), { maxKeys: 4 }), { maxLength: 3 }).map((v) => JSON.stringify(v));
  if (d.includes("object") || d.includes("dict"))
    return fc.dictionary(words, fc.oneof(ids, words, fc.boolean(), fc.constant(null)), { maxKeys: 4 }).map((v) => JSON.stringify(v));
  return fc.oneof(
    words,
    ids.map(String),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  );
}

export interface Pools {
  /** Ids that name something on the server (users, channels, messages, groups …). */
  ids: number[];
  /** Strings that name something (channel and topic names, emails, uuids, secret names …). */
  words: string[];
}

/** One request to one route of `routes`, as one caller, its values half plausible and half hostile. */
export function fuzzRequest(routes: readonly Endpoint[], pools: Pools): fc.Arbitrary<FuzzRequest> {
  const ids = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pools.ids) }, { weight: 1, arbitrary: fc.integer({ min: -1, max: 100_000 }) });
  const words = fc.oneof(fc.constantFrom(...pools.words), fc.constantFrom(...HOSTILE_TEXT.slice(0, 40)));
  const valueFor = (prm: Param<unknown>) => fc.oneof({ weight: 3, arbitrary: plausibleValue(prm, ids, words) }, { weight: 2, arbitrary: hostileValue(ids) });
  const pathValue = (prm: Param<unknown>) =>
    fc.oneof(
      { weight: 4, arbitrary: prm.describe === "integer" ? ids.map(String) : words },
      { weight: 1, arbitrary: fc.constantFrom("me", "0", "-1", "99999999999999999999", "1.5", "%00", "%F0%9F%99%82", "x".repeat(2000), "a%2Fb", "..") },
    );
  return fc.integer({ min: 0, max: routes.length - 1 }).chain((i) => {
    const ep = routes[i]!;
    const entries = Object.entries(ep.params) as [string, Param<unknown>][];
    const inPath = entries.filter(([, prm]) => prm.source === "path");
    const inBody = entries.filter(([, prm]) => prm.source !== "path");
    const pathArb = fc.tuple(...inPath.map(([n, prm]) => pathValue(prm).map((v) => [n, v] as const)), fc.constant(null));
    const paramArb = fc
      .tuple(fc.subarray(inBody, { minLength: Math.min(inBody.length, 1) }), fc.boolean())
      .chain(([chosen, extra]) =>
        fc.tuple(
          ...chosen.map(([n, prm]) => valueFor(prm).map((v) => [n, v] as [string, string])),
          extra ? fc.tuple(fc.constantFrom("stream", "narrow", "anchor", "__proto__", "constructor", "", "x\u0000"), hostileValue(ids)) : fc.constant(null),
        ),
      );
    return fc
      .record({
        caller: fc.constantFrom(...CALLERS),
        path: pathArb,
        params: paramArb,
        body: fc.constantFrom<FuzzRequest["body"]>("form", "form", "form", "form", "form", "twice", "json", "json", "badJson", "jsonScalar", "multipart"),
      })
      .map(({ caller, path, params, body }): FuzzRequest => {
        let url = ep.path;
        for (const pv of path) if (pv) url = url.replace(`{${pv[0]}}`, /%|^\.\.$/.test(pv[1]) ? pv[1] : encodeSegment(pv[1]));
        return {
          caller,
          method: ep.method,
          route: `${ep.method} ${ep.path}`,
          path: url,
          params: params.filter((x): x is [string, string] => x !== null),
          body,
        };
      });
  });
}

/** A path segment; a lone surrogate goes as the bytes it would be (invalid UTF-8), as a hostile client sends it. */
function encodeSegment(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "")) + "%ED%A0%80";
  }
}

export interface Answer {
  status: number;
  ms: number;
  /** No answer within the per-request timeout. */
  hung: boolean;
}

/** Sends a generated request; `auth` is the caller's Authorization header (null: none). */
export async function sendFuzz(base: string, r: FuzzRequest, auth: string | null, timeoutMs: number): Promise<Answer> {
  const headers: Record<string, string> = auth ? { Authorization: auth } : {};
  let url = `${base}/api/v1${r.path}`;
  let body: string | FormData | undefined;
  const form = new URLSearchParams(r.body === "twice" ? [...r.params, ...r.params.map(([k]): [string, string] => [k, "1"])] : r.params);
  if (r.method === "GET") {
    if (r.params.length) url += "?" + form;
  } else if (r.body === "form" || r.body === "twice") {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = form.toString();
  } else if (r.body === "multipart") {
    body = new FormData();
    for (const [k, v] of r.params) body.append(k, v);
    body.append("file", new File([r.params[0]?.[1] ?? "\u0000"], r.params[0]?.[0] || "f\u0000.bin", { type: "application/octet-stream" }));
  } else if (r.body === "jsonScalar") {
    headers["Content-Type"] = "application/json";
    body = r.params[0]?.[1] ?? "null";
  } else {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(Object.fromEntries(r.params.map(([k, v]) => [k, jsonish(v)])));
    if (r.body === "badJson") body = body.slice(0, Math.max(1, body.length >> 1)) + "\u0000";
  }
  const started = performance.now();
  try {
    const res = await fetch(url, { method: r.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started, hung: false };
  } catch (e) {
    if ((e as Error).name === "TimeoutError" || (e as Error).name === "AbortError") return { status: 0, ms: performance.now() - started, hung: true };
    throw e;
  }
}

/** In a JSON body a value travels as JSON where it is JSON text, else as the string itself. */
function jsonish(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A replayable one-line description of a request, for failure messages. */
export const describeFuzz = (r: FuzzRequest) =>
  `${r.caller} ${r.method} ${r.path.slice(0, 200)} [${r.body}] ${JSON.stringify(r.params.map(([k, v]) => [k, v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : v]))}`;
