// The route table's index: the templates a path may match, literal segments before parameters.
import { expect, test } from "bun:test";
import { routeIndex } from "../../src/http/route-index";
import { routes } from "../../src/http/routes";

const entry = (method: string, path: string) => ({ ep: { method, path } });
const paths = (list: readonly { ep: { path: string } }[]) => list.map((c) => c.ep.path);

test("a literal segment is tried before a parameter in its place; one shape keeps the table's order", () => {
  const index = routeIndex([
    entry("GET", "/users/{user_id}"),
    entry("GET", "/users/{email}"),
    entry("GET", "/users/me"),
    entry("GET", "/users/me/{stream_id}/topics"),
    entry("GET", "/users/{user_id}/subscriptions/{stream_id}"),
    entry("POST", "/users"),
  ]);
  expect(paths(index.candidates("GET", "/users/me"))).toEqual([
    "/users/me",
    "/users/me/{stream_id}/topics",
    "/users/{user_id}",
    "/users/{email}",
    "/users/{user_id}/subscriptions/{stream_id}",
  ]);
  expect(paths(index.candidates("HEAD", "/users/7"))).toEqual(paths(index.candidates("GET", "/users/7")));
  expect(paths(index.candidates("POST", "/users"))).toEqual(["/users"]);
  expect(index.candidates("DELETE", "/users/7")).toEqual([]);
  expect(index.candidates("GET", "/nothing")).toEqual([]);
  expect(index.methods.sort()).toEqual(["GET", "POST"]);
});

test("a template starting with a parameter is refused (the index is keyed by the first segment)", () => {
  expect(() => routeIndex([entry("GET", "/{anything}")])).toThrow("starts with a literal segment");
});

test("every endpoint of the route table is found under its own method and path", () => {
  const index = routeIndex(routes.map((ep) => ({ ep })));
  for (const ep of routes) {
    const sample = ep.path.replace(/\{\w+\}/g, "1");
    expect(index.candidates(ep.method, sample).map((c) => c.ep)).toContain(ep);
  }
});
