// The look of confab's few server-rendered pages (invitation sign-up, password reset, email links).
import { readInput, splitTarget } from "../input";
import type { App } from "../../context";

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The pages' URLs carry secrets (invitation and reset keys): no Referer leaves for other sites. Not
 * "no-referrer", under which browsers post the page's own forms with `Origin: null`, which the
 * sign-in forms' origin check (session.ts checkOrigin) refuses.
 */
export function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00}</style>
</head><body>${body}</body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "same-origin" } });
}

/** A posted form's fields as strings. */
export async function formValues(app: App, request: Request): Promise<Record<string, string>> {
  const input = await readInput(request, splitTarget(request.url).query, app.config.limits.maxApiRequestBytes);
  return Object.fromEntries([...input].map(([k, v]) => [k, String(v ?? "")]));
}

export const wantsJson = (r: Request) => (r.headers.get("accept") ?? "").includes("application/json");
