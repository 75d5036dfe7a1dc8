// For operators: GET /health (a bare probe, Docker's HEALTHCHECK: no credentials, no organization data)
// and GET /metrics (Prometheus): from this machine, or with an administrator's credentials.
import { health, renderMetrics } from "../../actions/metrics";
import { adminOnlyPage, notLoggedIn } from "../../domain/errors";
import { isAdmin } from "../../domain/roles";
import { parseRange, inRange, type AddressRange } from "../../lib/addresses";
import { pageViewer } from "../auth";
import { realmForHost } from "../realm";
import type { Page } from "./page";

const LOOPBACK = ["127.0.0.0/8", "::1/128"].map(parseRange) as AddressRange[];

const healthPage: Page["handle"] = (app) => {
  const h = health(app);
  return new Response(JSON.stringify(h.body), { status: h.ok ? 200 : 503, headers: { "content-type": "application/json", "cache-control": "no-store" } });
};

/** A request is local when its client is loopback and no proxy relayed it (a proxy on this machine would be loopback too). */
const isLocal = (request: Request, ip: string) =>
  !request.headers.has("x-forwarded-for") && !request.headers.has("forwarded") && LOOPBACK.some((r) => inRange(ip, r));

const metricsPage: Page["handle"] = async (app, request, _params, ip) => {
  if (!app.config.metrics.enabled) return new Response("Not Found", { status: 404 });
  if (!(app.config.metrics.allowLoopback && isLocal(request, ip()))) {
    const user = await pageViewer(app, await realmForHost(app, request.headers.get("host")), request, ip);
    if (!user) throw notLoggedIn();
    if (!isAdmin(user.role)) throw adminOnlyPage();
  }
  return new Response(await renderMetrics(app), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
};

export default [
  { method: "GET", path: "/health", handle: healthPage },
  { method: "GET", path: "/metrics", handle: metricsPage },
] satisfies Page[];
