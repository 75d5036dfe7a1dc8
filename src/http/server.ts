import { longpollTimeoutSeconds } from "../events/registry";
import type { Server } from "bun";
import type { App } from "../context";
import { methodNotAllowed, notFoundEndpoint, notLoggedIn } from "../domain/errors";
import { clientAddress, parseRange, type AddressRange } from "../lib/addresses";
import { requestUser } from "./auth";
import { authenticateSession } from "../actions/sessions";
import type { RealmRow, SessionRow, UserRow } from "../db/schema";
import { checkCsrf, readCookies, SESSION_COOKIE } from "./session";
import { serveWebClient } from "./web-client";
import type { Endpoint } from "./endpoint";
import { readInput, splitTarget } from "./input";
import { PATH_REST, readParams } from "../domain/params";
import { realmForHost } from "./realm";
import { failure, success } from "./respond";
import { pages } from "./pages";
import { routes } from "./routes";
import { uploadBodyBytes } from "./routes/attachments";
import { requestGate } from "./observe";
import { rateHeaders } from "../lib/rate-limit";

// One route table, two doors: /api/v1 with HTTP Basic (every Zulip client) and /json with the web
// client's session cookie and CSRF token (http/session.ts), as in Zulip.
const SURFACES = ["/api/v1", "/json"] as const;
type Surface = (typeof SURFACES)[number];

interface Compiled {
  ep: Endpoint;
  /** Its metrics slot. */
  slot: number;
  names: string[];
  /** Matches the path after the surface's prefix. */
  re: RegExp;
}

function compile(ep: Endpoint, slot: number): Compiled {
  const names: string[] = [];
  const re = new RegExp(
    "^" +
      ep.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, n) => {
        names.push(n);
        return isRest(ep, n) ? "(.+)" : "([^/]+)";
      }) +
      "$",
  );
  return { ep, slot, names, re };
}

const isRest = (ep: Endpoint, name: string) => ep.params[name]?.describe === PATH_REST;

/** Bun.serve's route pattern for a template; parameters are positional so templates of one shape share a route. */
const routePath = (ep: Endpoint) => {
  let i = 0;
  return ep.path.replace(/\{(\w+)\}/g, (_, n) => (isRest(ep, n) ? "*" : `:p${i++}`));
};

/**
 * Under /json the user is the session's (no session: 401, also where the API would take a spectator),
 * and unsafe methods need the CSRF token. Endpoints open to anyone use no session, so need no token.
 */
function sessionUser(app: App, realm: RealmRow, request: Request, ep: Endpoint) {
  if (ep.auth === "none") return null;
  const cookies = readCookies(request);
  const token = cookies.get(SESSION_COOKIE);
  if (!token) throw notLoggedIn();
  const found = authenticateSession(app, realm, token);
  checkCsrf(request, cookies, found.session);
  return found;
}

export interface HttpServer {
  port: number;
  url: string;
  /** Stops accepting; resolves once in-flight requests are answered (or, with `force`, cuts them). */
  stop(force?: boolean): Promise<void>;
}

export function buildHttp(app: App, endpoints: Endpoint[] = routes) {
  const gate = requestGate(app);
  const compiled = endpoints.map((ep) => compile(ep, gate.slot(`${ep.method} ${ep.path}`)));
  const unroutedSlot = gate.slot("unrouted");
  const logRequests = app.log.enabled("info");
  const trusted = app.config.trustedProxies.map(parseRange) as AddressRange[];
  const bodyLimit = { api: app.config.limits.maxApiRequestBytes, upload: Math.max(app.config.limits.maxRequestBytes, uploadBodyBytes(app)) };

  // Endpoints whose templates have the same shape (`/users/{user_id}`, `/users/{email}`) share one route;
  // the first whose path parameters parse takes the request.
  const groups = new Map<string, Compiled[]>();
  for (const c of compiled) {
    const key = `${c.ep.method} ${routePath(c.ep)}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }

  async function handle(surface: Surface, candidates: Compiled[], request: Request, peerOf: () => string): Promise<Response> {
    const started = performance.now();
    let address: string | undefined;
    const ip = () => (address ??= clientAddress(peerOf(), request.headers.get("x-forwarded-for"), trusted));
    const { path: pathname, query } = splitTarget(request.url);
    const rest = pathname.slice(surface.length);
    let userId: number | null = null;
    let slot = unroutedSlot;
    let rateLimit = 0,
      rateRemaining = 0,
      rateReset = 0;
    let res: Response;
    try {
      const realm = realmForHost(app, request.headers.get("host"));
      let chosen: { c: Compiled; path: Record<string, string> } | null = null;
      for (const c of candidates) {
        if (!c.names.length) {
          if (rest !== c.ep.path) continue; // a trailing slash is another path, as in Zulip
          chosen = { c, path: {} };
          break;
        }
        const m = c.re.exec(rest);
        if (!m) continue;
        const path = Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!]));
        try {
          for (const [n, prm] of Object.entries(c.ep.params)) if (prm.source === "path") prm.parse(path[n], n);
          chosen = { c, path };
          break;
        } catch (e) {
          if (candidates.length === 1) throw notFoundEndpoint();
        }
      }
      if (!chosen) throw notFoundEndpoint();
      const ep = chosen.c.ep;
      slot = chosen.c.slot;
      let user: UserRow | null = null;
      let session: SessionRow | null = null;
      if (surface === "/json") ({ user, session } = sessionUser(app, realm, request, ep) ?? { user: null, session: null });
      else {
        const header = request.headers.get("authorization");
        if (ep.auth === "user" || (ep.auth === "optional" && header)) user = requestUser(app, realm, header, ip);
      }
      userId = user?.id ?? null;
      const rate = gate.limit(userId, ip);
      if (rate) ({ limit: rateLimit, remaining: rateRemaining, reset: rateReset } = rate);
      let input = readInput(request, query, bodyLimit[ep.body]);
      if (input instanceof Promise) input = await input;
      const { args, ignored } = readParams(ep.params, input, chosen.path);
      const files = input.size ? [...input.values()].filter((v): v is File => v instanceof File) : [];
      let out = ep.run({
        app,
        realm,
        user,
        args,
        files,
        req: request,
        session,
        get ip() {
          return ip();
        },
      });
      if (out instanceof Promise) out = await out;
      // Answer only once the change is committed; a read stands even if its derived writes did not.
      if (app.writer.pending) await (ep.readOnly ? app.writer.settled().catch(() => {}) : app.writer.settled());
      res = out instanceof Response ? out : success((out as object) ?? {}, ignored);
    } catch (e) {
      res = failure(e, (err) => app.log.error("unhandled error", { path: pathname, error: String((err as Error)?.stack ?? err) }));
      // A browser meeting `Basic` would pop up its own password dialog over the web client.
      if (surface === "/json" && res.headers.has("www-authenticate")) res.headers.set("www-authenticate", 'Session realm="zulip"');
    }
    if (rateLimit) rateHeaders(res.headers, rateLimit, rateRemaining, rateReset);
    gate.done(slot, res.status, started);
    if (logRequests)
      app.log.info("request", {
        method: request.method,
        path: pathname,
        status: res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        user: userId ?? "-",
      });
    return res;
  }

  /** An unknown path under /api/v1 or /json is a JSON 404; a known path with another method a 405. */
  function unrouted(request: Request): Response {
    const { path } = splitTarget(request.url);
    const surface = SURFACES.find((s) => path.startsWith(s + "/"));
    const rest = surface ? path.slice(surface.length) : null;
    const allowed = rest === null ? [] : [...new Set(compiled.filter((c) => c.re.test(rest)).map((c) => c.ep.method))];
    const err = allowed.length ? methodNotAllowed(allowed) : notFoundEndpoint();
    const res = failure(err, () => {});
    gate.done(unroutedSlot, res.status, performance.now());
    if (logRequests) app.log.info("request", { method: request.method, path, status: res.status, ms: 0, user: "-" });
    return res;
  }

  // Bun.serve's own router takes the table as it is: nothing is compiled at start (Elysia composed
  // every route's handler twice while listening, about a third of a start's CPU). A pattern holds a
  // handler per method; a method it lacks, like an unknown path, goes to `fallback`.
  const table: Record<string, Partial<Record<string, Handler>>> = {};
  const add = (method: string, path: string, h: Handler) => ((table[path] ??= {})[method] ??= h);
  for (const [key, candidates] of groups)
    for (const surface of SURFACES) {
      const [method, path] = key.split(" ") as [string, string];
      add(method, surface + path, (request, s) => handle(surface, candidates, request, () => s.requestIP(request)?.address ?? "unknown"));
    }
  // Pages outside /api/v1 (invitation sign-up, avatar files): see pages/index.ts. A page answers with or
  // without its trailing slash; a final `*` is the rest of the path, as sent (params["*"]).
  for (const pg of pages) {
    const wild = pg.path.endsWith("/*") ? pg.path.split("/").length - 1 : -1;
    const h: Handler = async (request, s) => {
      try {
        const params = { ...(request as Request & { params: Record<string, string> }).params };
        if (wild >= 0) params["*"] = splitTarget(request.url).path.split("/").slice(wild).join("/");
        return await pg.handle(app, request, params, () => s.requestIP(request)?.address ?? "unknown");
      } catch (e) {
        return failure(e, (err) => app.log.error("unhandled error", { path: pg.path, error: String((err as Error)?.stack ?? err) }));
      }
    };
    add(pg.method, pg.path, h);
    if (wild < 0 && pg.path.length > 1) add(pg.method, pg.path.endsWith("/") ? pg.path.slice(0, -1) : `${pg.path}/`, h);
  }
  // Any other GET is the web client's (a file, or its page); what it lacks is a JSON 404 like the API's.
  async function fallback(request: Request): Promise<Response> {
    if (request.method === "GET" || request.method === "HEAD") {
      const web = await serveWebClient(app, request).catch((e) => {
        app.log.error("web client unavailable", { error: String((e as Error)?.message ?? e) });
        return null;
      });
      if (web) return web;
    }
    return unrouted(request);
  }
  return { routes: table as Record<string, Record<string, Handler>>, fetch: fallback };
}

type Handler = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

/** Starts listening; long polls are held open, so idle connections may outlive the heartbeat. */
export function listen(app: App, host: string, port: number): HttpServer {
  const { routes: table, fetch } = buildHttp(app);
  const s = Bun.serve({
    hostname: host,
    port,
    routes: table,
    fetch,
    idleTimeout: Math.min(255, longpollTimeoutSeconds(app.config.events)),
    // Bodies are limited per endpoint while they are read (input.ts), with a Zulip error; Bun's own
    // limit would answer an empty 413 first.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // Direct HTTPS for those without a reverse proxy (tls.cert, tls.key: PEM files, read at start).
    ...(app.config.tls.cert && { tls: { cert: Bun.file(app.config.tls.cert), key: Bun.file(app.config.tls.key) } }),
  });
  // With port 0 the external URL is only known now.
  if (app.config.externalUrl.endsWith(":0")) app.config.externalUrl = app.config.externalUrl.replace(/:0$/, `:${s.port}`);
  return {
    port: s.port!,
    url: `${app.config.tls.cert ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${s.port}`,
    async stop(force = false) {
      await s.stop(force);
    },
  };
}
