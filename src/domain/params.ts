// One declaration per endpoint parameter drives parsing, validation, Zulip-worded errors and
// ignored_parameters_unsupported. Values arrive as strings (query, form, multipart) or, from a JSON
// body, as JSON values; list and object parameters are JSON text inside a form, as Zulip clients send.
import { confusingParams, invalidParam, missingArgument } from "./errors";
import { MAX_JSON_DEPTH, parseJson, TooDeep } from "../lib/json";

/**
 * The most items any list (or keys any dict) in a request may hold unless its declaration says
 * otherwise: what a parameter grows, the work it causes grows with it, and one request must not hold
 * the event loop for long. Checked before any item is looked at.
 */
export const MAX_LIST_ITEMS = 1000;

/** Zulip's wording for a value of the wrong shape at `name` (e.g. `drafts[0]["topic"]`). */
export const msgs = {
  int: (n: string) => `${n} is not an integer`,
  bool: (n: string) => `${n} is not a boolean`,
  str: (n: string) => `${n} is not a string`,
  list: (n: string) => `${n} is not a list`,
  dict: (n: string) => `${n} is not a dict`,
  json: (n: string) => `${n} is not valid JSON`,
  tooLong: (n: string, max: number) => `${n} is too long (limit: ${max} characters)`,
  tooSmall: (n: string) => `${n} is too small`,
  tooLarge: (n: string) => `${n} is too large`,
  blank: (n: string) => `${n} cannot be blank`,
  invalid: (n: string) => `Invalid ${n}`,
  tooMany: (n: string, max: number) => `${n} has too many items (limit: ${max})`,
  tooDeep: (n: string) => `${n} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`,
  unexpected: (arg: string, n: string) => `Argument "${arg}" at ${n} is unexpected`,
};

const fail = (msg: string): never => {
  throw invalidParam(msg);
};

// ---- Shapes of JSON values (list items, object fields): check and return the value, or throw. ----
export type Shape<T> = { check(v: unknown, name: string): T; optional?: boolean; describe: string };

const shape = <T>(describe: string, check: (v: unknown, name: string) => T): Shape<T> => ({ describe, check });

export const t = {
  int: (o: { min?: number; max?: number } = {}) =>
    shape<number>("integer", (v, n) => {
      if (typeof v !== "number" || !Number.isInteger(v)) fail(msgs.int(n));
      if (o.min !== undefined && (v as number) < o.min) fail(msgs.tooSmall(n));
      if (o.max !== undefined && (v as number) > o.max) fail(msgs.tooLarge(n));
      return v as number;
    }),
  bool: () => shape<boolean>("boolean", (v, n) => (typeof v === "boolean" ? v : fail(msgs.bool(n)))),
  str: (o: { max?: number; nonEmpty?: boolean } = {}) =>
    shape<string>("string", (v, n) => {
      if (typeof v !== "string") fail(msgs.str(n));
      if (o.max !== undefined && [...(v as string)].length > o.max) fail(msgs.tooLong(n, o.max));
      if (o.nonEmpty && !(v as string).trim()) fail(msgs.blank(n));
      return v as string;
    }),
  enum: <T extends string | number>(values: readonly T[]) =>
    shape<T>(`one of ${values.join(", ")}`, (v, n) => (values.includes(v as T) ? (v as T) : fail(msgs.invalid(n)))),
  /** At most `max` items (MAX_LIST_ITEMS by default); `unique`: repeated items count once (sets of ids). */
  list: <T>(item: Shape<T>, o: { max?: number; unique?: boolean } = {}) =>
    shape<T[]>(`list of ${item.describe}`, (v, n) => {
      if (!Array.isArray(v)) fail(msgs.list(n));
      const max = o.max ?? MAX_LIST_ITEMS;
      if ((v as unknown[]).length > max) fail(msgs.tooMany(n, max));
      const items = o.unique ? [...new Set(v as unknown[])] : (v as unknown[]);
      return items.map((x, i) => item.check(x, `${n}[${i}]`));
    }),
  object: <S extends Record<string, Shape<any>>>(fields: S, o: { extra?: boolean } = {}) =>
    shape<{ [K in keyof S]: ReturnType<S[K]["check"]> }>("object", (v, n) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) fail(msgs.dict(n));
      const obj = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(fields)) {
        const sub = `${n}[${JSON.stringify(k)}]`;
        if (!(k in obj) || obj[k] === undefined) {
          if (!s.optional) fail(`${sub} field is missing`);
          continue;
        }
        out[k] = s.check(obj[k], sub);
      }
      if (!o.extra) for (const k of Object.keys(obj)) if (!(k in fields)) fail(msgs.unexpected(k, n));
      return out as never;
    }),
  dict: <T>(value: Shape<T>) =>
    shape<Record<string, T>>("dict", (v, n) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) fail(msgs.dict(n));
      const entries = Object.entries(v as object);
      if (entries.length > MAX_LIST_ITEMS) fail(msgs.tooMany(n, MAX_LIST_ITEMS));
      const out: Record<string, T> = {};
      for (const [k, x] of entries) out[k] = value.check(x, `${n}[${JSON.stringify(k)}]`);
      return out;
    }),
  nullable: <T>(s: Shape<T>) => shape<T | null>(`${s.describe} or null`, (v, n) => (v === null ? null : s.check(v, n))),
  union: <T>(...alts: Shape<T>[]) =>
    shape<T>(alts.map((a) => a.describe).join(" or "), (v, n) => {
      let first: unknown;
      for (const a of alts) {
        try {
          return a.check(v, n);
        } catch (e) {
          first ??= e;
        }
      }
      throw first;
    }),
  any: () => shape<unknown>("value", (v) => v),
  optional: <T>(s: Shape<T>): Shape<T | undefined> => ({ ...s, optional: true }) as Shape<T | undefined>,
};

// ---- Request parameters ----
/** The description of a path parameter that spans several segments (p.path.rest). */
export const PATH_REST = "path";

type Source = "request" | "path";

/** `A`: optional with no default, so the value may be absent (`Args` makes its key optional). */
export class Param<T, A extends boolean = boolean> {
  declare readonly mayBeAbsent: A;
  constructor(
    /** How a present raw value becomes T; throws ApiError with Zulip's wording. */
    readonly parse: (raw: unknown, name: string) => T,
    readonly describe: string,
    readonly source: Source = "request",
    readonly required = true,
    readonly defaultValue: (() => T) | undefined = undefined,
    readonly aliases: readonly string[] = [],
  ) {}

  /** Not required; `def` (a value or a function making one) when absent. */
  optional(): Param<T | undefined, true>;
  optional<D extends T>(def: D | (() => D)): Param<T | D, false>;
  optional<D extends T>(def?: D | (() => D)): Param<T | D | undefined, boolean> {
    const make = typeof def === "function" ? (def as () => D) : () => def;
    return new Param<T | D | undefined, boolean>(this.parse, this.describe, this.source, false, make, this.aliases);
  }

  /** Older names the same parameter is also accepted under (e.g. `stream` for `channel`). */
  alias(...names: string[]): Param<T, A> {
    return new Param<T, A>(this.parse, this.describe, this.source, this.required, this.defaultValue, [...this.aliases, ...names]);
  }
}

const jsonValue = (raw: unknown, name: string): unknown => {
  if (typeof raw !== "string") return raw; // from a JSON body: already a value, its depth checked (input.ts)
  try {
    return parseJson(raw);
  } catch (e) {
    return fail(e instanceof TooDeep ? msgs.tooDeep(name) : msgs.json(name));
  }
};

/** A JSON-typed parameter (Zulip's Json[...]): the text is parsed, then its shape checked. */
const fromJson = <T>(s: Shape<T>) => new Param<T>((raw, n) => s.check(jsonValue(raw, n), n), s.describe);

export const p = {
  int: (o: { min?: number; max?: number } = {}) => fromJson(t.int(o)),
  bool: () => fromJson(t.bool()),
  /** A plain string: taken as sent, never JSON-decoded. */
  str: (o: { max?: number; nonEmpty?: boolean } = {}) => {
    const s = t.str(o);
    return new Param<string>((raw, n) => s.check(raw, n), "string");
  },
  enum: <T extends string>(values: readonly T[]) => {
    const s = t.enum(values);
    return new Param<T>((raw, n) => s.check(raw, n), s.describe);
  },
  /** An integer enumeration, sent as JSON (e.g. role=400). */
  intEnum: <T extends number>(values: readonly T[]) => fromJson(t.enum(values)),
  json: <T>(s: Shape<T>) => fromJson(s),
  /** A list of ids: repeated ids count once unless `unique: false` (an ordering, where a repeat is an error). */
  intList: (o: { max?: number; unique?: boolean } = {}) => fromJson(t.list(t.int(), { unique: true, ...o })),
  strList: (o: { max?: number; unique?: boolean } = {}) => fromJson(t.list(t.str(), { unique: true, ...o })),
  /**
   * JSON if the text is JSON, else the text itself (POST /messages `to`: an id, a name, a list, or
   * emails joined by commas). A list is bounded and its repeats collapsed; a comma-joined text too.
   */
  jsonOrText: (o: { max?: number } = {}) =>
    new Param<unknown>((raw, n) => {
      const max = o.max ?? MAX_LIST_ITEMS;
      let v: unknown = raw;
      if (typeof raw === "string") {
        try {
          v = parseJson(raw);
        } catch (e) {
          if (e instanceof TooDeep) fail(msgs.tooDeep(n));
          v = raw;
        }
      }
      if (Array.isArray(v)) {
        if (v.length > max) fail(msgs.tooMany(n, max));
        if (v.some((x) => typeof x === "object" && x !== null)) fail(msgs.invalid(n));
        return [...new Set(v)];
      }
      if (typeof v === "string" && v.split(",", max + 1).length > max) fail(msgs.tooMany(n, max));
      return v;
    }, "JSON or text"),
  path: {
    int: () =>
      new Param<number>(
        (raw, n) => {
          const s = String(raw);
          if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(Number(s))) fail(msgs.int(n));
          return Number(s);
        },
        "integer",
        "path",
      ),
    str: () => new Param<string>((raw) => decodeURIComponent(String(raw)), "string", "path"),
    /** The rest of the path, slashes included (Zulip's `<path:filename>`); only as a template's last part. */
    rest: () => new Param<string>((raw) => String(raw).split("/").map(decodeURIComponent).join("/"), PATH_REST, "path"),
  },
};

export type ParamTable = Record<string, Param<any, boolean>>;
type ValueOf<X> = X extends { parse: (raw: unknown, name: string) => infer T } ? T : never;
type MayBeAbsent<X> = X extends { mayBeAbsent: true } ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };
/**
 * The values a parameter table reads: the one argument type of an endpoint's action, derived from its
 * declaration (parameters that may be absent are optional keys, so callers other than HTTP may omit them).
 */
export type Args<P extends ParamTable> = Flat<
  { [K in keyof P as MayBeAbsent<P[K]> extends true ? never : K]: ValueOf<P[K]> } & {
    [K in keyof P as MayBeAbsent<P[K]> extends true ? K : never]?: ValueOf<P[K]>;
  }
>;

const NONE_IGNORED: string[] = [];

/** Reads every declared parameter; returns the values and the request's parameter names that were not used. */
export function readParams<P extends ParamTable>(table: P, input: Map<string, unknown>, path: Record<string, string>): { args: Args<P>; ignored: string[] } {
  const used = new Set<string>();
  const args: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(table)) {
    if (param.source === "path") {
      args[name] = param.parse(path[name], name);
      continue;
    }
    let found: string | undefined;
    for (const n of [name, ...param.aliases]) {
      if (!input.has(n)) continue;
      if (found !== undefined) throw confusingParams(found, n);
      found = n;
    }
    if (found === undefined) {
      if (param.required) throw missingArgument(name);
      args[name] = param.defaultValue?.();
      continue;
    }
    used.add(found);
    args[name] = param.parse(input.get(found), found);
  }
  // Uploaded files are not parameters (Zulip reports only form fields as ignored).
  const ignored = input.size === used.size ? NONE_IGNORED : [...input.keys()].filter((k) => !used.has(k) && !(input.get(k) instanceof File)).sort();
  return { args: args as Args<P>, ignored };
}
