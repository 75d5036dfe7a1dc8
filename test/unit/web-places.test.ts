// Issue 18's "done when": every administration endpoint and every endpoint under /ext/ has a place in
// the web client, at most three clicks from the main view. The server's route table names the
// endpoints; src/web/places.ts says where each one is; the file it names must call it.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { routes } from "../../src/http/routes";
import { PLACES, type Place } from "../../src/web/places";
import { ROOT } from "../helpers/import-graph";

/** Changes that only administrators (or those a realm permission delegates to) make. */
const ADMINISTRATION =
  /^\/(realm|invites|bots|user_groups|channel_folders|default_streams|export\/realm|channels\/create)(\/|$)|^\/streams\/\{stream_id\}(\/delete_topic)?$|^\/users(\/\{user_id\}(\/reactivate|\/status)?)?$/;
/** Reads only administrators make, which their pages fetch. */
const ADMINISTRATION_READS = new Set(["GET /invites", "GET /export/realm", "GET /export/realm/consents"]);

const isPlaced = (method: string, path: string) =>
  path.startsWith("/ext/") || (ADMINISTRATION.test(path) && (method !== "GET" || ADMINISTRATION_READS.has(`${method} ${path}`)));

const needed = routes.filter((r) => isPlaced(r.method, r.path)).map((r) => `${r.method} ${r.path}`);

/** A call of the endpoint as the client writes it: `api.<method>(` somewhere in the file, and the path's
 * fixed parts in order (without the leading slash), with the parameters' code between them. */
function callsEndpoint(source: string, key: string): boolean {
  const [method, path] = key.split(" ") as [string, string];
  const pieces = path
    .slice(1)
    .split(/\{[^}]+\}/)
    .filter(Boolean);
  const escaped = pieces.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const ends = path.endsWith("}") ? "" : "[\"'`?]";
  const re = new RegExp(`["'\`]${escaped.join(".{1,100}?")}${ends}`);
  return new RegExp(`\\.${method.toLowerCase()}(<[^>]*>)?\\(`).test(source) && re.test(source);
}

describe("every administration and /ext endpoint has a place in the web client", () => {
  test("the route table has such endpoints (the filter still matches)", () => {
    expect(needed.length).toBeGreaterThan(80);
    expect(needed).toContain("POST /realm/icon");
    expect(needed).toContain("PATCH /ext/widgets/{install_id}/{widget}/preference");
  });

  test("each has a place, and no place names an endpoint that is gone", () => {
    expect(needed.filter((k) => !(k in PLACES))).toEqual([]);
    expect(Object.keys(PLACES).filter((k) => !needed.includes(k))).toEqual([]);
  });

  test("each place is at most three clicks from the main view, and its file calls the endpoint", () => {
    const wrong: string[] = [];
    for (const [key, place] of Object.entries(PLACES)) {
      if ("caller" in place) {
        if (!place.caller.trim()) wrong.push(`${key}: names no caller`);
        continue;
      }
      const p = place as Place;
      if (!(p.clicks >= 0 && p.clicks <= 3)) wrong.push(`${key}: ${p.clicks} clicks away`);
      const file = join(ROOT, "src/web", p.file);
      if (!existsSync(file)) {
        wrong.push(`${key}: no file src/web/${p.file}`);
        continue;
      }
      const source = readFileSync(file, "utf8");
      if (p.via ? !source.includes(p.via) : !callsEndpoint(source, key))
        wrong.push(`${key}: src/web/${p.file} does not ${p.via ? `read ${p.via}` : "call it"}`);
    }
    expect(wrong).toEqual([]);
  });
});
