// Property: whatever sizes and nesting a request's parameters have — near and past every bound — each
// endpoint answers without a 5xx, within a fixed budget, and the server keeps answering. The seed is
// printed by fast-check on failure; FC_SEED replays it, FC_RUNS runs longer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { MAX_LIST_ITEMS } from "../../src/domain/params";
import { routes } from "../../src/http/routes";
import { MAX_JSON_DEPTH } from "../../src/lib/json";
import { ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

/** Far above a bounded request's time on a loaded machine, far below the seconds an unbounded one took. */
const BUDGET_MS = 3000;

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.newUser(); // some ids to name
});
afterAll(() => s.stop());

const sizes = fc.constantFrom(0, 1, 2, MAX_LIST_ITEMS - 1, MAX_LIST_ITEMS, MAX_LIST_ITEMS + 1, 5000, 5001, 100_000);
const depths = fc.constantFrom(1, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 10_000);
const smallId = fc.integer({ min: -1, max: 12 });

/** Values as a client would send them: lists of ids (repeated or not), deep nesting, wide dicts, long text, anything. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(sizes, smallId, fc.boolean()).map(([n, id, same]) => Array.from({ length: n }, (_, i) => (same ? id : i + 1))),
  fc.tuple(sizes, fc.boolean()).map(([n, asObjects]) => Array.from({ length: n }, (_, i) => (asObjects ? { name: `c${i}` } : `n${i}`))),
  fc.tuple(depths, fc.boolean()).map(([d, objects]) => (objects ? '{"a":'.repeat(d) + "1" + "}".repeat(d) : "[".repeat(d) + "]".repeat(d))),
  sizes.map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
  fc.constantFrom(0, 1, 1000, 200_000, 2_000_000).map((n) => "x".repeat(n)),
  fc.jsonValue({ maxDepth: 3 }),
);

const pathValue = fc.oneof(smallId.map(String), fc.constantFrom("general", "x".repeat(300), "%5B%5D"));

const request = fc.integer({ min: 0, max: routes.length - 1 }).chain((i) => {
  const ep = routes[i]!;
  const names = Object.entries(ep.params);
  return fc.record({
    ep: fc.constant(ep),
    path: fc.tuple(...names.filter(([, p]) => p.source === "path").map(([n]) => pathValue.map((v) => [n, v] as const)), fc.constant(null)),
    params: fc
      .subarray(names.filter(([, p]) => p.source !== "path").map(([n]) => n))
      .chain((chosen) => fc.tuple(...chosen.map((n) => value.map((v) => [n, v] as const)), fc.constant(null))),
  });
});

test("every route, parameters near and past their bounds: no 5xx, within budget, server still answers", async () => {
  await fc.assert(
    fc.asyncProperty(request, async ({ ep, path, params }) => {
      let url = ep.path;
      for (const pv of path) if (pv) url = url.replace(`{${pv[0]}}`, encodeURIComponent(pv[1]));
      const form = new URLSearchParams();
      for (const pv of params) if (pv) form.set(pv[0], typeof pv[1] === "string" ? pv[1] : JSON.stringify(pv[1]));
      const get = ep.method === "GET";
      const started = performance.now();
      const res = await fetch(`${s.url}/api/v1${url}${get ? `?${form}` : ""}`, {
        method: ep.method,
        headers: { Authorization: s.owner.auth!, ...(get ? {} : { "content-type": "application/x-www-form-urlencoded" }) },
        body: get ? undefined : form.toString(),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      expect({ route: `${ep.method} ${ep.path}`, server_error: res.status >= 500 }).toEqual({ route: `${ep.method} ${ep.path}`, server_error: false });
      expect(ms).toBeLessThan(BUDGET_MS);
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 300), seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
  );
  expect((await ok(s.owner.get("/users/me"))).user_id).toBe(s.owner.userId);
}, 60_000);
