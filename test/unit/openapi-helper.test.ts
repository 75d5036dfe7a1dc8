// The OpenAPI helper, on literal bodies: examples taken from Zulip's own file must pass, broken
// bodies must fail with readable messages, paths must reach the right operation.
import { describe, expect, test } from "bun:test";
import { findOperation, operations, validateEvent, validateResponse, validateSchemaByRef, zulipSpec } from "../helpers/openapi.ts";

const spec = zulipSpec();
const clone = <T>(x: T): T => structuredClone(x);

// The examples Zulip wrote sit on the allOf member that closes the object; the example beside
// `allOf` on a generated component is a placeholder (`result: ""`) and is not used.
function authoredExample(schemaName: string): any {
  const s = spec.components.schemas[schemaName];
  const member = (s.allOf ?? []).find((m: any) => !m.$ref && m.example !== undefined);
  return clone(member ? member.example : s.example);
}

function eventExample(type: string, op?: string): any {
  const items = spec.components.schemas.get_events_200_response_allOf_events_inner.oneOf;
  for (const ref of items) {
    const name = ref.$ref.split("/").pop();
    const ex = authoredExample(name);
    if (ex?.type === type && (op === undefined || ex.op === op)) return ex;
  }
  throw new Error(`no example event ${type}/${op}`);
}

describe("responses", () => {
  const ownUser = () => authoredExample("get_own_user_200_response");

  test("the file's own GET /users/me example passes", () => {
    expect(ownUser().user_id).toBe(5);
    expect(validateResponse("GET", "/users/me", 200, ownUser())).toEqual([]);
    expect(validateResponse("GET", "/users/me", 200, { ...ownUser(), ignored_parameters_unsupported: ["x"] })).toEqual([]);
  });

  test("a wrong result type fails, naming the operation and the field", () => {
    const errors = validateResponse("GET", "/users/me", 200, { ...ownUser(), result: 5 });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join("\n")).toContain("GET /users/me 200 (get-own-user): /result must be string");
    expect(validateResponse("GET", "/users/me", 200, { ...ownUser(), result: "error" }).join()).toContain('/result must be one of ["success"]');
  });

  test("wrong types, unknown properties and missing required properties fail", () => {
    expect(validateResponse("GET", "/users/me", 200, { ...ownUser(), user_id: "5" })).toEqual(["GET /users/me 200 (get-own-user): /user_id must be integer"]);
    expect(validateResponse("GET", "/users/me", 200, { ...ownUser(), surprise: 1 })).toEqual([
      'GET /users/me 200 (get-own-user): / has unexpected property "surprise"',
    ]);
    const { msg, ...noMsg } = ownUser();
    expect(validateResponse("GET", "/users/me", 200, noMsg)).toEqual(['GET /users/me 200 (get-own-user): / is missing required property "msg"']);
  });

  test("quirk: Zulip's file requires almost no response fields, so a missing user_id passes", () => {
    const { user_id, ...noId } = ownUser();
    expect(validateResponse("GET", "/users/me", 200, noId)).toEqual([]);
  });

  test("nullable fields accept null, others do not (User re-declares avatar_url as nullable)", () => {
    const user = clone(authoredExample("get_user_by_email_200_response").user);
    expect(validateSchemaByRef("#/components/schemas/User", user)).toEqual([]);
    expect(validateSchemaByRef("#/components/schemas/User", { ...user, avatar_url: null, bot_type: null })).toEqual([]);
    expect(validateSchemaByRef("#/components/schemas/User", { ...user, user_id: null })).toEqual(["#/components/schemas/User: /user_id must be integer"]);
    expect(validateResponse("GET", "/users/12", 200, { result: "success", msg: "", user })).toEqual([]);
  });

  test("error statuses use their own schema; undocumented statuses and paths are not checked", () => {
    const bad = { result: "error", msg: "Bad event queue ID: x", code: "BAD_EVENT_QUEUE_ID", queue_id: "x" };
    expect(validateResponse("GET", "/events", 400, bad)).toEqual([]);
    expect(validateResponse("GET", "/events", 400, { ...bad, code: 3 })).toEqual(["GET /events 400 (get-events): /code must be string"]);
    expect(validateResponse("GET", "/users/me", 418, { anything: true })).toEqual([]);
    expect(validateResponse("GET", "/no/such/endpoint", 200, { anything: true })).toEqual([]);
    expect(validateResponse("PUT", "/users/me", 200, { anything: true })).toEqual([]);
  });

  test("GET /events checks the envelope and each event", () => {
    const body = { result: "success", msg: "", queue_id: "q", events: [eventExample("heartbeat")] };
    expect(validateResponse("GET", "/events", 200, body)).toEqual([]);
    expect(validateResponse("GET", "/events", 200, { ...body, extra: 1 })).toEqual(['GET /events 200 (get-events): / has unexpected property "extra"']);
    const broken = {
      ...body,
      events: [
        { type: "heartbeat", id: "1" },
        { type: "ext_widget", id: 2 },
      ],
    };
    expect(validateResponse("GET", "/events", 200, broken)).toEqual([expect.stringContaining("GET /events 200 (get-events): /events/0 event heartbeat")]);
  });
});

describe("path matching", () => {
  const template = (method: string, path: string) => findOperation(method, path)?.template;

  test("a literal segment beats a template segment", () => {
    expect(findOperation("GET", "/users/me")).toEqual({ template: "/users/me", operationId: "get-own-user", source: "zulip" });
    expect(template("GET", "/users/me/subscriptions")).toBe("/users/me/subscriptions");
    expect(template("POST", "/messages/flags")).toBe("/messages/flags");
    expect(template("GET", "/messages/5")).toBe("/messages/{message_id}");
  });

  test("integer segments go to the {..._id} template, others to {email}", () => {
    expect(findOperation("GET", "/users/5")?.operationId).toBe("get-user");
    expect(findOperation("GET", "/users/iago@zulip.com")?.operationId).toBe("get-user-by-email");
    expect(template("PATCH", "/users/5")).toBe("/users/{user_id}");
  });

  test("nested templates", () => {
    expect(findOperation("POST", "/messages/5/reactions")?.operationId).toBe("add-reaction");
    expect(findOperation("DELETE", "/messages/5/reactions")?.template).toBe("/messages/{message_id}/reactions");
    expect(findOperation("GET", "/users/me/5/topics")?.template).toBe("/users/me/{stream_id}/topics");
    expect(template("GET", "/users/5/subscriptions/7")).toBe("/users/{user_id}/subscriptions/{stream_id}");
  });

  test("the path decides first, then the method; unknown paths are null", () => {
    expect(findOperation("PATCH", "/users/me")).toBeNull(); // not PATCH /users/{email}
    expect(findOperation("GET", "/nope")).toBeNull();
    expect(findOperation("GET", "/users/me/")).toBeNull();
  });

  test("/ext paths come from test/schemas/ext.yaml", () => {
    expect(findOperation("POST", "/ext/secrets")).toEqual({ template: "/ext/secrets", operationId: "ext-add-secret", source: "ext" });
    expect(template("PATCH", "/ext/widgets/3/board/preference")).toBe("/ext/widgets/{install_id}/{widget}/preference");
    expect(template("DELETE", "/ext/workspaces/0b6e0f5c-8a4e-4a8e-9d47-3f1c2b9e0a11/readme")).toBe("/ext/workspaces/{workspace_uuid}/readme");
  });
});

describe("events", () => {
  test("the file's own examples pass", () => {
    for (const [type, op] of [
      ["heartbeat"],
      ["message"],
      ["subscription", "add"],
      ["realm_user", "update"],
      ["reaction", "add"],
      ["update_message"],
      ["user_group", "add_members"],
    ] as const) {
      expect([type, validateEvent(eventExample(type, op))]).toEqual([type, []]);
    }
  });

  test("a broken event fails against the candidates of its type and op", () => {
    const sub = eventExample("subscription", "add");
    expect(validateEvent({ ...sub, subscriptions: "Verona" })).toEqual([
      expect.stringMatching(/^event subscription\/add \(.*\): \/subscriptions must be array$/),
    ]);
    expect(validateEvent({ ...eventExample("heartbeat"), extra: true }).join()).toContain('has unexpected property "extra"');
    const person = { ...eventExample("realm_user", "update"), person: { user_id: "x" } };
    expect(validateEvent(person).length).toBeGreaterThan(0);
  });

  test("types and ops the file does not describe pass", () => {
    expect(validateEvent({ type: "ext_secret", id: 1, secret: {} })).toEqual([]);
    expect(validateEvent({ type: "realm_emoji", op: "add", id: 1, realm_emoji: {} })).toEqual([]);
  });
});

describe("ext.yaml", () => {
  const secret = {
    name: "GITHUB_TOKEN",
    hint: "a1b2",
    note: "CI access",
    added_by: 8,
    date_added: 1_700_000_000,
    replaced_by: null,
    date_replaced: null,
    date_used: null,
  };

  test("POST /ext/secrets", () => {
    expect(validateResponse("POST", "/ext/secrets", 200, { result: "success", msg: "", secret })).toEqual([]);
    expect(validateResponse("POST", "/ext/secrets", 200, { result: "success", msg: "", secret, ignored_parameters_unsupported: ["x"] })).toEqual([]);
    const { hint, ...noHint } = secret;
    expect(validateResponse("POST", "/ext/secrets", 200, { result: "success", msg: "", secret: { ...noHint, value: "s3cret" } })).toEqual([
      'POST /ext/secrets 200 (ext-add-secret): /secret is missing required property "hint"',
      'POST /ext/secrets 200 (ext-add-secret): /secret has unexpected property "value"',
    ]);
    // 4xx bodies are checked against the 4XX error schema
    expect(validateResponse("POST", "/ext/secrets", 400, { result: "error", msg: "Invalid name", code: "BAD_REQUEST" })).toEqual([]);
    expect(validateResponse("POST", "/ext/secrets", 403, { result: "error", msg: "No" })).toEqual([
      'POST /ext/secrets 403 (ext-add-secret): / is missing required property "code"',
    ]);
  });

  test("the other extension endpoints", () => {
    const ok = { result: "success", msg: "" };
    expect(validateResponse("POST", "/ext/widgets", 200, { ...ok, version: 3 })).toEqual([]);
    expect(validateResponse("POST", "/ext/widgets", 200, ok)).toEqual(['POST /ext/widgets 200 (ext-push-widget): / is missing required property "version"']);
    expect(validateResponse("PATCH", "/ext/widgets/3/board/preference", 200, ok)).toEqual([]);
    expect(validateResponse("PATCH", "/ext/widgets/3/board/preference", 200, { ...ok, shown: true })).toHaveLength(1);
    expect(validateResponse("DELETE", "/ext/workspaces/abc/readme", 200, ok)).toEqual([]);
  });

  test("a restored plugin", () => {
    const plugin = {
      id: 4,
      plugin: "ci-board",
      name: "CI board",
      version: "1.2.0",
      source_kind: "codehost",
      source: "github.com/acme/ci-board",
      source_repository_id: null,
      source_path: "",
      sha: "0a1b2c",
      manifest: { id: "ci-board", name: "CI board", run: { command: ["bun", "main.ts"] }, extra: 1 },
      state: "starting",
      detail: "",
      bot_user_id: 30,
      installed_by: 8,
      made_by: null,
      made_by_run_id: null,
      made_in_stream_id: null,
      made_in_topic: null,
      made_in_message_id: null,
      settings: { project: "x" },
      secrets: [{ name: "TOKEN", title: "Token", required: true, set: true, hint: "", set_by: 8, date_set: 1_700_000_000 }],
      links: [{ id: 1, kind: "project", value: "acme", stream_id: 3, topic: null }],
      disabled: false,
      widget_defaults: { board: { nav: "shown", column: true } },
      disabled_tools: [],
      date_installed: 1_700_000_000,
      date_removed: null,
    };
    expect(validateResponse("POST", "/ext/plugins/4/restore", 200, { result: "success", msg: "", plugin })).toEqual([]);
    expect(validateSchemaByRef("ext.yaml#/components/schemas/Plugin", { ...plugin, state: "paused" })).toEqual([
      'ext.yaml#/components/schemas/Plugin: /state must be one of ["waiting","starting","running","failed","removed","draft"]',
    ]);
  });
});

test("operations() lists every operation with its parameters", () => {
  const ops = operations();
  const getUser = ops.find((o) => o.method === "GET" && o.template === "/users/{user_id}")!;
  expect(getUser.operationId).toBe("get-user");
  expect(getUser.parameters).toContainEqual({ name: "user_id", in: "path", required: true });
  expect(getUser.parameters).toContainEqual({ name: "client_gravatar", in: "query", required: false });
  const report = ops.find((o) => o.method === "POST" && o.template === "/messages/{message_id}/report")!;
  expect(report.parameters).toContainEqual({ name: "report_type", in: "body", required: true });
  // quirk: the file does not mark POST /drafts `drafts` as required, though Zulip requires it
  const drafts = ops.find((o) => o.method === "POST" && o.template === "/drafts")!;
  expect(drafts.parameters).toEqual([{ name: "drafts", in: "body", required: false }]);
  const secrets = ops.find((o) => o.method === "POST" && o.template === "/ext/secrets")!;
  expect(secrets.source).toBe("ext");
  expect(secrets.parameters).toContainEqual({ name: "name", in: "body", required: true });
  expect(ops.filter((o) => o.source === "zulip").length).toBeGreaterThan(100);
});
