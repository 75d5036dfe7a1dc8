import { longpollTimeoutSeconds } from "../events/registry";
import { Elysia } from "elysia";
import type { App } from "../app";
import { methodNotAllowed, notFoundEndpoint } from "../domain/errors";
import { requestUser } from "./auth";
import type { Endpoint } from "./endpoint";
import { readInput } from "./input";
import { readParams } from "./params";
import { realmForHost } from "./realm";
import { failure, success } from "./respond";
import { pages } from "./pages";
import { routes } from "./routes";

const API = "/api/v1";

interface Compiled {
  ep: Endpoint;
  names: string[];
  re: RegExp;
}

function compile(ep: Endpoint): Compiled {
  const names: string[] = [];
  const re = new RegExp(
    "^" +
      API +
      ep.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, n) => {
        names.push(n);
        return "([^/]+)";
      }) +
      "$",
  );
  return { ep, names, re };
}

/** Elysia's route pattern for a template; parameters are positional so templates of one shape share a route. */
const elysiaPath = (path: string) => {
  let i = 0;
  return API + path.replace(/\{\w+\}/g, () => `:p${i++}`);
};

export interface HttpServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export function buildHttp(app: App, endpoints: Endpoint[] = routes) {
  const compiled = endpoints.map(compile);
  const logRequests = app.log.enabled("info");

  // Endpoints whose templates have the same shape (`/users/{user_id}`, `/users/{email}`) share one route;
  // the first whose path parameters parse takes the request.
  const groups = new Map<string, Compiled[]>();
  for (const c of compiled) {
    const key = `${c.ep.method} ${elysiaPath(c.ep.path)}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }

  async function handle(candidates: Compiled[], request: Request, addressOf: () => string): Promise<Response> {
    const started = performance.now();
    let address: string | undefined;
    const ip = () => (address ??= addressOf());
    const url = new URL(request.url);
    let userId: number | null = null;
    let res: Response;
    try {
      const realm = realmForHost(app, request.headers.get("host"));
      let chosen: { c: Compiled; path: Record<string, string> } | null = null;
      for (const c of candidates) {
        if (!c.names.length) {
          if (url.pathname !== API + c.ep.path) continue; // a trailing slash is another path, as in Zulip
          chosen = { c, path: {} };
          break;
        }
        const m = c.re.exec(url.pathname);
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
      const header = request.headers.get("authorization");
      const user = ep.auth === "user" || (ep.auth === "optional" && header) ? requestUser(app, realm, header, ip) : null;
      userId = user?.id ?? null;
      const input = await readInput(request, url, app.config.limits.maxRequestBytes);
      const { args, ignored } = readParams(ep.params, input, chosen.path);
      const files = input.size ? [...input.values()].filter((v): v is File => v instanceof File) : [];
      let out = ep.run({ app, realm, user, args, files, req: request, get ip() { return ip(); } });
      if (out instanceof Promise) out = await out;
      await app.writer.settled(); // answer only once the change is committed
      res = out instanceof Response ? out : success((out as object) ?? {}, ignored);
    } catch (e) {
      res = failure(e, (err) => app.log.error("unhandled error", { path: url.pathname, error: String((err as Error)?.stack ?? err) }));
    }
    if (logRequests)
      app.log.info("request", {
        method: request.method,
        path: url.pathname,
        status: res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        user: userId ?? "-",
      });
    return res;
  }

  /** An unknown path under /api/v1 is a JSON 404; a known path with another method a 405. */
  function unrouted(request: Request): Response {
    const path = new URL(request.url).pathname;
    const allowed = [...new Set(compiled.filter((c) => c.re.test(path)).map((c) => c.ep.method))];
    const err = allowed.length ? methodNotAllowed(allowed) : notFoundEndpoint();
    const res = failure(err, () => {});
    if (logRequests) app.log.info("request", { method: request.method, path, status: res.status, ms: 0, user: "-" });
    return res;
  }

  let server = new Elysia();
  for (const [key, candidates] of groups) {
    const [method, path] = key.split(" ") as [string, string];
    server = server.route(method, path, ({ request, server: s }) => handle(candidates, request, () => s?.requestIP(request)?.address ?? "unknown"), {
      parse: "none",
    }) as unknown as Elysia;
  }
  // Pages outside /api/v1 (invitation sign-up, avatar files): see pages/index.ts.
  for (const pg of pages)
    server = server.route(pg.method, pg.path, async ({ request, params, server: s }) => {
      try {
        return await pg.handle(app, request, params as Record<string, string>, () => s?.requestIP(request)?.address ?? "unknown");
      } catch (e) {
        return failure(e, (err) => app.log.error("unhandled error", { path: pg.path, error: String((err as Error)?.stack ?? err) }));
      }
    }, { parse: "none" }) as unknown as Elysia;
  server = server.onError(({ code, request }) => {
    if (code === "NOT_FOUND") return unrouted(request);
    return failure(new Error(String(code)), (e) => app.log.error("unhandled error", { error: String(e) }));
  }) as unknown as Elysia;
  return server;
}

/** Starts listening; long polls are held open, so idle connections may outlive the heartbeat. */
export function listen(app: App, host: string, port: number): HttpServer {
  const server = buildHttp(app).listen({
    hostname: host,
    port,
    idleTimeout: Math.min(255, longpollTimeoutSeconds(app.config.events)),
    maxRequestBodySize: app.config.limits.maxRequestBytes,
  });
  const s = server.server!;
  // With port 0 the external URL is only known now.
  if (app.config.externalUrl.endsWith(":0")) app.config.externalUrl = app.config.externalUrl.replace(/:0$/, `:${s.port}`);
  return {
    port: s.port!,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${s.port}`,
    async stop() {
      await server.stop(true);
    },
  };
}
