import { longpollTimeoutSeconds } from "../events/registry";
import type { Server } from "bun";
import type { Elysia } from "elysia";
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
import { routeIndex } from "./route-index";
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

/**
 * Under /json the user is the session's (no session: 401, also where the API would take a spectator),
 * and unsafe methods need the CSRF token. Endpoints open to anyone use no session, so need no token.
 */
async function sessionUser(app: App, realm: RealmRow, request: Request, ep: Endpoint) {
  if (ep.auth === "none") return null;
  const cookies = readCookies(request);
  const token = cookies.get(SESSION_COOKIE);
  if (!token) throw notLoggedIn();
  const found = await authenticateSession(app, realm, token);
  checkCsrf(request, cookies, found.session);
  return found;
}

/**
 * The endpoint a path names: the first candidate template it matches whose path values parse. `null`
 * when a template matched but no value parsed (a 404), `undefined` when none matched at all.
 */
function choose(candidates: readonly Compiled[], rest: string): { c: Compiled; path: Record<string, string> } | null | undefined {
  let matched = false;
  for (const c of candidates) {
    if (!c.names.length) {
      if (rest !== c.ep.path) continue; // a trailing slash is another path, as in Zulip
      return { c, path: {} };
    }
    const m = c.re.exec(rest);
    if (!m) continue;
    matched = true;
    const path = Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!]));
    try {
      for (const [n, prm] of Object.entries(c.ep.params)) if (prm.source === "path") prm.parse(path[n], n);
      return { c, path };
    } catch {
      // not this template's kind of value (`/users/{email}` after `/users/{user_id}`): try the next
    }
  }
  return matched ? null : undefined;
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

  const index = routeIndex(compiled);

  async function handle(surface: Surface, request: Request, peerOf: () => string): Promise<Response> {
    const started = performance.now();
    const { path: pathname, query } = splitTarget(request.url);
    const rest = pathname.slice(surface.length);
    const chosen = choose(index.candidates(request.method, rest), rest);
    // A path no template matches: 404, or 405 where another method has it.
    if (chosen === undefined) return unrouted(request);
    let address: string | undefined;
    const ip = () => (address ??= clientAddress(peerOf(), request.headers.get("x-forwarded-for"), trusted));
    let userId: number | null = null;
    let slot = unroutedSlot;
    let rateLimit = 0,
      rateRemaining = 0,
      rateReset = 0;
    let res: Response;
    try {
      // A hit of the read cache (nearly every request) comes back without a promise: no await for it.
      let realm = realmForHost(app, request.headers.get("host"));
      if (realm instanceof Promise) realm = await realm;
      if (!chosen) throw notFoundEndpoint();
      const ep = chosen.c.ep;
      slot = chosen.c.slot;
      let user: UserRow | null = null;
      let session: SessionRow | null = null;
      if (surface === "/json") ({ user, session } = (await sessionUser(app, realm, request, ep)) ?? { user: null, session: null });
      else {
        const header = request.headers.get("authorization");
        if (ep.auth === "user" || (ep.auth === "optional" && header)) {
          const found = requestUser(app, realm, header, ip);
          user = found instanceof Promise ? await found : found;
        }
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

  // Each door is one route of Bun's own router (no context to build per request); the table is looked
  // up in `index` (route-index.ts). Elysia serves the rest: pages, the web client, unknown paths.
  const doors = Object.fromEntries(
    SURFACES.map((surface) => [
      `${surface}/*`,
      (request: Request, s: Server<unknown>) => handle(surface, request, () => s.requestIP(request)?.address ?? "unknown"),
    ]),
  );
  /** Pages outside /api/v1 and the web client: Elysia, loaded and built on the first request for them. */
  const buildPages = async (bun: Server<unknown>): Promise<Elysia> => {
    const { Elysia } = await import("elysia");
    let server = new Elysia();
    // Pages outside /api/v1 (invitation sign-up, avatar files): see pages/index.ts.
    for (const pg of pages)
      server = server.route(
        pg.method,
        pg.path,
        async ({ request, params, server: s }) => {
          try {
            return await pg.handle(app, request, params as Record<string, string>, () => s?.requestIP(request)?.address ?? "unknown");
          } catch (e) {
            return failure(e, (err) => app.log.error("unhandled error", { path: pg.path, error: String((err as Error)?.stack ?? err) }));
          }
        },
        { parse: "none" },
      ) as unknown as Elysia;
    // Any other GET is the web client's (a file, or its page); what it lacks is a JSON 404 like the API's.
    server = server.onError(async ({ code, request }) => {
      if (code === "NOT_FOUND" && (request.method === "GET" || request.method === "HEAD")) {
        const web = await serveWebClient(app, request).catch((e) => {
          app.log.error("web client unavailable", { error: String((e as Error)?.message ?? e) });
          return null;
        });
        if (web) return web;
      }
      if (code === "NOT_FOUND") return unrouted(request);
      return failure(new Error(String(code)), (e) => app.log.error("unhandled error", { error: String(e) }));
    }) as unknown as Elysia;
    server.server = bun; // what Elysia hands its handlers as `server` (the pages read the client's address from it)
    return server;
  };
  return { doors, buildPages };
}

/**
 * Starts listening; long polls are held open, so idle connections may outlive the heartbeat. Bun's
 * server is started here rather than by Elysia's `listen`, which compiles every Elysia route first
 * (2–4 ms of every start, measured on a compiled executable): the API's doors need none of it, so
 * Elysia is loaded (2–3 ms), built and compiled on the first request that reaches it.
 */
export function listen(app: App, host: string, port: number): HttpServer {
  const { doors, buildPages } = buildHttp(app);
  let pagesFetch: Promise<(request: Request) => Response | Promise<Response>> | undefined;
  const toPages = async (request: Request, server: Server<unknown>): Promise<Response> =>
    (await (pagesFetch ??= buildPages(server).then((e) => e.fetch)))(request);
  // Each page is a route of Bun's router too, so that one under a door's path (POST /api/v1/external/…)
  // is chosen over the door, Bun's more specific route winning.
  const pageRoutes = Object.fromEntries(pages.map((pg) => [pg.path, toPages]));
  const s = Bun.serve({
    hostname: host,
    port,
    idleTimeout: Math.min(255, longpollTimeoutSeconds(app.config.events)),
    // Bodies are limited per endpoint while they are read (input.ts), with a Zulip error; Bun's own
    // limit would answer an empty 413 first.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // Direct HTTPS for those without a reverse proxy (tls.cert, tls.key: PEM files, read at start).
    ...(app.config.tls.cert && { tls: { cert: Bun.file(app.config.tls.cert), key: Bun.file(app.config.tls.key) } }),
    routes: { ...pageRoutes, ...doors },
    fetch: toPages,
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
