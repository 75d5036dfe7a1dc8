// The parameter table: one declaration gives parsing, Zulip's error wording and the list of ignored names.
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/domain/errors";
import { MAX_LIST_ITEMS, p, readParams, t, type ParamTable } from "../../src/domain/params";
import { MAX_JSON_DEPTH } from "../../src/lib/json";

const read = (table: ParamTable, input: Record<string, unknown>, path: Record<string, string> = {}) => readParams(table, new Map(Object.entries(input)), path);

/** The ApiError a read throws, as {code, msg}. */
function failure(table: ParamTable, input: Record<string, unknown>, path: Record<string, string> = {}) {
  try {
    read(table, input, path);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    expect(e.status).toBe(400);
    return { code: e.code, msg: e.message };
  }
  throw new Error("expected an ApiError");
}
const bad = (msg: string) => ({ code: "BAD_REQUEST", msg });

describe("scalars from form text and from JSON bodies", () => {
  test("int, bool, str, enum, intEnum", () => {
    const table = { n: p.int(), b: p.bool(), s: p.str(), e: p.enum(["a", "b"]), r: p.intEnum([100, 400]) };
    const form = { n: "42", b: "true", s: "  hi  ", e: "a", r: "400" };
    expect(read(table, form).args).toEqual({ n: 42, b: true, s: "  hi  ", e: "a", r: 400 });
    const json = { n: 42, b: false, s: "x", e: "b", r: 100 };
    expect(read(table, json).args).toEqual(json);
  });

  test("a str is never JSON-decoded", () => {
    expect(read({ s: p.str() }, { s: '"quoted"' }).args.s).toBe('"quoted"');
    expect(read({ s: p.str() }, { s: "123" }).args.s).toBe("123");
  });

  test("wrong types, in Zulip's words", () => {
    expect(failure({ n: p.int() }, { n: "abc" })).toEqual(bad("n is not valid JSON"));
    expect(failure({ n: p.int() }, { n: "1.5" })).toEqual(bad("n is not an integer"));
    expect(failure({ n: p.int() }, { n: '"1"' })).toEqual(bad("n is not an integer"));
    expect(failure({ b: p.bool() }, { b: "1" })).toEqual(bad("b is not a boolean"));
    expect(failure({ b: p.bool() }, { b: "yes" })).toEqual(bad("b is not valid JSON"));
    expect(failure({ s: p.str() }, { s: 5 })).toEqual(bad("s is not a string"));
    expect(failure({ e: p.enum(["a", "b"]) }, { e: "c" })).toEqual(bad("Invalid e"));
    expect(failure({ r: p.intEnum([100, 400]) }, { r: "200" })).toEqual(bad("Invalid r"));
  });

  test("limits", () => {
    expect(failure({ n: p.int({ min: 1 }) }, { n: "0" })).toEqual(bad("n is too small"));
    expect(failure({ n: p.int({ max: 9 }) }, { n: "10" })).toEqual(bad("n is too large"));
    expect(failure({ s: p.str({ max: 3 }) }, { s: "abcd" })).toEqual(bad("s is too long (limit: 3 characters)"));
    // Characters, not UTF-16 units: three emoji fit in a limit of 3.
    expect(read({ s: p.str({ max: 3 }) }, { s: "😀😀😀" }).args.s).toBe("😀😀😀");
    expect(failure({ s: p.str({ nonEmpty: true }) }, { s: "   " })).toEqual(bad("s cannot be blank"));
  });
});

describe("lists and objects: JSON text inside the form", () => {
  test("intList and strList", () => {
    expect(read({ ids: p.intList() }, { ids: "[1,2,3]" }).args.ids).toEqual([1, 2, 3]);
    expect(read({ ids: p.intList() }, { ids: [4] }).args.ids).toEqual([4]);
    expect(read({ names: p.strList() }, { names: '["a","b"]' }).args.names).toEqual(["a", "b"]);
  });

  test("malformed JSON, wrong item types, not a list, too many", () => {
    expect(failure({ ids: p.intList() }, { ids: "[1," })).toEqual(bad("ids is not valid JSON"));
    expect(failure({ ids: p.intList() }, { ids: '"x"' })).toEqual(bad("ids is not a list"));
    expect(failure({ ids: p.intList() }, { ids: '["a"]' })).toEqual(bad("ids[0] is not an integer"));
    expect(failure({ ids: p.intList() }, { ids: "[1, 2.5]" })).toEqual(bad("ids[1] is not an integer"));
    expect(failure({ ids: p.intList({ max: 2 }) }, { ids: "[1,2,3]" })).toEqual(bad("ids has too many items (limit: 2)"));
  });

  test("bounds: every list and dict has a limit, repeats collapse, nesting is bounded without recursion", () => {
    const many = JSON.stringify(Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => i));
    expect(failure({ ids: p.intList() }, { ids: many })).toEqual(bad(`ids has too many items (limit: ${MAX_LIST_ITEMS})`));
    expect(
      failure({ d: p.json(t.dict(t.any())) }, { d: JSON.stringify(Object.fromEntries(Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => [`k${i}`, i]))) }),
    ).toEqual(bad(`d has too many items (limit: ${MAX_LIST_ITEMS})`));
    expect(read({ ids: p.intList() }, { ids: "[3,1,3,3,1]" }).args.ids).toEqual([3, 1]);
    expect(read({ order: p.intList({ unique: false }) }, { order: "[3,1,3]" }).args.order).toEqual([3, 1, 3]);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(failure({ v: p.json(t.any()) }, { v: deep })).toEqual(bad(`v is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`));
    expect(failure({ to: p.jsonOrText() }, { to: deep })).toEqual(bad(`to is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`));
    // Brackets inside strings are text, not nesting.
    expect(read({ v: p.json(t.any()) }, { v: JSON.stringify(["[".repeat(1000)]) }).args.v).toEqual(["[".repeat(1000)]);
    expect(read({ to: p.jsonOrText() }, { to: "[5,5,6]" }).args.to).toEqual([5, 6]);
    expect(read({ to: p.jsonOrText() }, { to: "a@x.org, b@x.org" }).args.to).toBe("a@x.org, b@x.org");
    expect(failure({ to: p.jsonOrText({ max: 2 }) }, { to: "a,b,c" })).toEqual(bad("to has too many items (limit: 2)"));
    expect(failure({ to: p.jsonOrText() }, { to: "[[1]]" })).toEqual(bad("Invalid to"));
  });

  test("objects: nested names in errors, missing and unexpected fields, optional fields", () => {
    const draft = p.json(t.list(t.object({ topic: t.str(), to: t.list(t.int()), timestamp: t.optional(t.int()) })));
    expect(read({ drafts: draft }, { drafts: '[{"topic":"x","to":[1]}]' }).args.drafts).toEqual([{ topic: "x", to: [1] }]);
    expect(failure({ drafts: draft }, { drafts: '[{"topic":1,"to":[]}]' })).toEqual(bad('drafts[0]["topic"] is not a string'));
    expect(failure({ drafts: draft }, { drafts: '[{"topic":"x","to":["y"]}]' })).toEqual(bad('drafts[0]["to"][0] is not an integer'));
    expect(failure({ drafts: draft }, { drafts: '[{"to":[]}]' })).toEqual(bad('drafts[0]["topic"] field is missing'));
    expect(failure({ drafts: draft }, { drafts: '[{"topic":"x","to":[],"color":1}]' })).toEqual(bad('Argument "color" at drafts[0] is unexpected'));
    expect(failure({ drafts: draft }, { drafts: "{}" })).toEqual(bad("drafts is not a list"));
    expect(failure({ d: p.json(t.dict(t.int())) }, { d: '{"a":"b"}' })).toEqual(bad('d["a"] is not an integer'));
    expect(failure({ d: p.json(t.dict(t.int())) }, { d: "[]" })).toEqual(bad("d is not a dict"));
  });

  test("nullable and union", () => {
    const v = p.json(t.union<unknown>(t.int(), t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) })));
    expect(read({ v }, { v: "11" }).args.v).toBe(11);
    expect(read({ v }, { v: '{"direct_members":[1],"direct_subgroups":[]}' }).args.v).toEqual({ direct_members: [1], direct_subgroups: [] });
    expect(failure({ v }, { v: '"x"' })).toEqual(bad("v is not an integer"));
    expect(read({ n: p.json(t.nullable(t.int())) }, { n: "null" }).args.n).toBeNull();
  });
});

describe("presence, defaults, aliases, ignored parameters", () => {
  test("a missing required parameter", () => {
    expect(failure({ password: p.str() }, {})).toEqual({ code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'password' argument" });
  });

  test("optional parameters take their default, fixed or computed", () => {
    let made = 0;
    const table = { a: p.bool().optional(true), b: p.int().optional(), c: p.intList().optional(() => [++made]) };
    expect(read(table, {}).args).toEqual({ a: true, b: undefined, c: [1] });
    expect(read(table, {}).args.c).toEqual([2]);
    expect(read(table, { a: "false", b: "3" }).args).toEqual({ a: false, b: 3, c: [3] });
  });

  test("aliases: either name; both at once is confusing", () => {
    const table = { channel: p.str().alias("stream") };
    expect(read(table, { stream: "general" })).toEqual({ args: { channel: "general" }, ignored: [] });
    expect(failure(table, { channel: "a", stream: "b" })).toEqual({
      code: "REQUEST_CONFUSING_VAR",
      msg: "Can't decide between 'channel' and 'stream' arguments",
    });
  });

  test("every parameter the table does not read is listed, sorted; uploaded files are not parameters", () => {
    expect(read({ a: p.int() }, { zeta: "1", a: "1", alpha: "2", Beta: "3" }).ignored).toEqual(["Beta", "alpha", "zeta"]);
    expect(read({}, { filename: new File(["x"], "x.png"), extra: "1" }).ignored).toEqual(["extra"]);
  });

  test("path parameters", () => {
    const table = { user_id: p.path.int(), email: p.path.str() };
    expect(read(table, {}, { user_id: "12", email: "a%40b.c" }).args).toEqual({ user_id: 12, email: "a@b.c" });
    expect(failure({ user_id: p.path.int() }, {}, { user_id: "x" })).toEqual(bad("user_id is not an integer"));
    expect(failure({ user_id: p.path.int() }, {}, { user_id: "99999999999999999999" })).toEqual(bad("user_id is not an integer"));
  });
});
