// Parameters are declared once (docs/architecture.md): an endpoint that hands its parsed `args` to an
// action takes its table from that action, adding only path parameters, and the action types that
// argument `Args<typeof table>`. The rule is read from the sources (test/helpers/route-params.ts).
import { describe, expect, test } from "bun:test";
import { checkRouteFile, routeParamProblems } from "../helpers/route-params";

const action = `
import { p, type Args } from "../domain/params";
export const thingParams = { name: p.str(), size: p.int().optional() };
export type ThingArgs = Args<typeof thingParams>;
export function makeThing(app: App, user: UserRow, a: Args<typeof thingParams>) {}
export function editThing(app: App, user: UserRow, id: number, a: ThingArgs) {}
export function typedByHand(app: App, user: UserRow, a: { name: string; size?: number }) {}
`;
const route = (spec: string) => `
import { makeThing, editThing, typedByHand, thingParams } from "../../actions/things";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";
export default [endpoint("POST", "/things", ${spec})];
`;
const problems = (spec: string) =>
  checkRouteFile("src/http/routes/things.ts", route(spec), () => action).flatMap((d) => d.problems.map((p) => `${d.route}: ${p}`));

describe("route parameters", () => {
  test("every endpoint passing args takes its table from its action and the action derives its type", () => {
    expect(routeParamProblems()).toEqual([]);
  });

  test("the check accepts a table from the action, with path parameters added, and single values", () => {
    expect(problems("{ params: thingParams, run: ({ app, user, args }) => makeThing(app, user, args) }")).toEqual([]);
    expect(problems("{ params: { thing_id: p.path.int(), ...thingParams }, run: ({ app, user, args }) => editThing(app, user, args.thing_id, args) }")).toEqual(
      [],
    );
    expect(problems("{ params: { size: p.int() }, run: ({ app, user, args }) => typedByHand(app, user, { name: 'x', size: args.size }) }")).toEqual([]);
    expect(problems("{ params: thingParams, run: async ({ app, user, args }) => await makeThing(app, user, args) }")).toEqual([]);
  });

  test("the check fails, naming the route, when args are typed by hand, declared in the route or repacked", () => {
    expect(problems("{ params: thingParams, run: ({ app, user, args }) => typedByHand(app, user, args) }")).toEqual([
      "POST /things: typedByHand types args by hand ({ name: string; size?: number }), not Args<typeof table>",
    ]);
    expect(problems("{ params: { name: p.str() }, run: ({ app, user, args }) => makeThing(app, user, args) }")).toEqual([
      "POST /things: declares name in the route, not with its action",
      "POST /things: makeThing takes Args<typeof thingParams> but the route declares its own",
    ]);
    expect(problems("{ params: thingParams, run: ({ app, user, args }) => makeThing(app, user, { ...args, extra: 1 }) }")).toEqual([
      "POST /things: passes args other than whole, to one action",
    ]);
  });
});
