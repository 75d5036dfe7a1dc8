// Every endpoint declaration in src/http/routes against the API it claims to speak: the operation in
// Zulip's OpenAPI file (or test/schemas/ext.yaml for /ext), and the contract's parameter tables, which
// win where they add parameters. A failure names the endpoint and the parameter.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Endpoint } from "../../src/http/endpoint";
import { routes } from "../../src/http/routes";
import { operations, zulipSpec, type OperationInfo } from "../helpers/openapi";
import { CONTRACT } from "../helpers/reference";

/**
 * Parameters Zulip documents that confab deliberately does not declare, keyed "METHOD /template",
 * each with the reason. Keep this short: an entry here is a Zulip client's request we answer by
 * listing the parameter in ignored_parameters_unsupported.
 */
const NOT_DECLARED: Record<string, Record<string, string>> = {};

/**
 * Endpoints Zulip's server has (and its clients call) that neither its OpenAPI file nor the contract
 * documents, each with the reason confab serves it. Their parameters follow Zulip's server code.
 */
const ZULIP_UNDOCUMENTED: Record<string, string> = {
  "PATCH /realm": "organization settings (issue 4); Zulip documents no OpenAPI operation for it",
  "GET /realm/domains": "allowed email domains (issue 4), beside the contract's PATCH",
  "POST /realm/domains": "allowed email domains (issue 4), beside the contract's PATCH",
  "DELETE /realm/domains/{domain}": "allowed email domains (issue 4), beside the contract's PATCH",
  "GET /users/me/status": "one's own status (issue 4: GET/POST /users/me/status)",
  "POST /users/{user_id}/status": "administrators set another user's status (issue 4)",
  "GET /bots": "one's own bots (issue 4)",
  "POST /bots": "bot creation: generic, incoming and outgoing webhook (issue 4)",
  "PATCH /bots/{bot_id}": "bot name, owner and service (issue 4)",
  "DELETE /bots/{bot_id}": "bot deactivation (issue 4)",
  "POST /users/me/avatar": "avatar upload (issue 4), beside the contract's DELETE",
  "POST /realm/icon": "the organization icon upload Zulip's web app sends (issue 18)",
  "DELETE /realm/icon": "back to the default organization icon, as Zulip's web app does (issue 18)",
  "POST /register_client_device": "the device registration the contract's POST /remove_client_device undoes (level 468)",
  "POST /submessage": "the widget protocol (poll and todo votes, tasks) Zulip's web app and zulip-terminal send (issue 15)",
  "PATCH /realm/profile_fields/{field_id}": "python-zulip-api's update_realm_profile_field (issue 15)",
  "DELETE /realm/profile_fields/{field_id}": "python-zulip-api's remove_realm_profile_field (issue 15)",
  "GET /bot_storage": "the bot storage API: python-zulip-api's get_storage (issue 15)",
  "PUT /bot_storage": "the bot storage API: python-zulip-api's update_storage (issue 15)",
  "DELETE /bot_storage": "the bot storage API, as Zulip serves it (issue 15)",
  "PATCH /settings/notifications": "Zulip's alias of PATCH /settings since level 80; python-zulip-api's update_notification_settings (issue 15)",
  "PATCH /settings/display": "Zulip's other alias of PATCH /settings since level 80 (issue 15)",
};

/**
 * Operations of Zulip's OpenAPI file that confab does not answer, each with the reason. The README's
 * "Zulip API coverage" lists the same ones.
 */
const NOT_SERVED: Record<string, string> = {
  "POST /real-time": "documentation of the event system (register, then GET /events), not an endpoint Zulip serves",
  "POST /rest-error-handling": "documentation of error responses, not an endpoint Zulip serves",
  "POST /zulip-outgoing-webhook": "the request Zulip sends to an outgoing webhook bot's URL, not one it answers",
};

/** Issue 15: at least this many of the file's operations are answered. */
const REQUIRED_OPERATIONS = 134;

/** Parameters the contract names in prose rather than in a parameter table, keyed like NOT_DECLARED. */
const CONTRACT_PROSE: Record<string, string[]> = {
  // Listed among the contract's boolean parameters (level 431); a user changes their own value too.
  "PATCH /realm/user_settings_defaults": ["web_inbox_show_channel_folders"],
  "PATCH /settings": ["web_inbox_show_channel_folders"],
};

/** Parameters Zulip's file names only in a description, keyed like NOT_DECLARED. */
const ZULIP_PROSE: Record<string, string[]> = {
  // "Previous Zulip releases encoded this as `subject`, which is currently a deprecated alias" (zulip-terminal sends it).
  "POST /messages": ["subject"],
  "PATCH /messages/{message_id}": ["subject"],
};

/** The contract's parameter table of each endpoint ("#### METHOD /path", then "| Parameter | ..."). */
function contractParameters(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let current: Set<string> | null = null;
  let inTable = false;
  for (const line of readFileSync(CONTRACT.copy, "utf8").split("\n")) {
    const heading = /^#### (GET|POST|PATCH|PUT|DELETE) (\/\S+)/.exec(line);
    if (heading) {
      current = new Set();
      out.set(`${heading[1]} ${heading[2]}`, current);
      inTable = false;
      continue;
    }
    if (/^#{1,3} /.test(line)) current = null;
    if (!current) continue;
    if (/^\| *Parameter *\|/.test(line)) inTable = true;
    else if (inTable && line.startsWith("|")) {
      const name = line
        .split("|")[1]!
        .trim()
        .replace(/`/g, "")
        .replace(/\s*\(path\)$/, "");
      if (name && !/^-+$/.test(name)) current.add(name);
    } else inTable = false;
  }
  return out;
}

const ops = operations();
const contract = contractParameters();
const key = (ep: Endpoint) => `${ep.method} ${ep.path}`;
const operationOf = (ep: Endpoint): OperationInfo | undefined => ops.find((o) => o.method === ep.method && o.template === ep.path);
/**
 * Parameters an operation takes from the request. Headers and cookies are not parameters here, nor are
 * uploaded files (multipart fields of format binary): endpoints read those from ctx.files whatever
 * their field name, as Zulip reads request.FILES.
 */
const requestParams = (op: OperationInfo) => op.parameters.filter((p) => p.in !== "header" && p.in !== "cookie" && !isUpload(op, p.name));

function isUpload(op: OperationInfo, name: string): boolean {
  if (op.source !== "zulip") return false;
  const spec = zulipSpec();
  let schema = spec.paths[op.template]?.[op.method.toLowerCase()]?.requestBody?.content?.["multipart/form-data"]?.schema;
  if (schema?.$ref) schema = spec.components.schemas[schema.$ref.split("/").pop()];
  return schema?.properties?.[name]?.format === "binary";
}

describe("route declarations match Zulip's OpenAPI file and the contract", () => {
  test("the contract's parameter tables were found", () => {
    expect(contract.get("POST /register")).toContain("idle_queue_timeout");
    expect(contract.get("POST /dev_fetch_api_key")).toEqual(new Set(["username"]));
  });

  test("every endpoint is one the OpenAPI files or the contract describe, declared once", () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const ep of routes) {
      if (seen.has(key(ep))) problems.push(`${key(ep)}: declared twice`);
      seen.add(key(ep));
      if (!operationOf(ep) && !contract.has(key(ep)) && !(key(ep) in ZULIP_UNDOCUMENTED))
        problems.push(`${key(ep)}: neither Zulip's OpenAPI file, test/schemas/ext.yaml nor the contract describes it`);
    }
    expect(problems).toEqual([]);
  });

  test("every parameter Zulip documents is declared, in the same place (path or request)", () => {
    const problems: string[] = [];
    for (const ep of routes) {
      const op = operationOf(ep);
      if (!op) continue;
      const excused = NOT_DECLARED[key(ep)] ?? {};
      for (const zp of requestParams(op)) {
        if (zp.name in excused) continue;
        const entry = Object.entries(ep.params).find(([name, p]) => name === zp.name || p.aliases.includes(zp.name));
        if (!entry) {
          problems.push(`${key(ep)}: Zulip documents ${zp.in} parameter '${zp.name}', the declaration lacks it`);
          continue;
        }
        const [name, p] = entry;
        if ((zp.in === "path") !== (p.source === "path"))
          problems.push(`${key(ep)}: '${name}' is a ${zp.in} parameter in Zulip's file but declared as a ${p.source} parameter`);
        if (zp.required && !p.required && zp.in !== "path") problems.push(`${key(ep)}: Zulip requires '${zp.name}', the declaration makes it optional`);
      }
      for (const name of Object.keys(excused))
        if (!requestParams(op).some((zp) => zp.name === name)) problems.push(`${key(ep)}: NOT_DECLARED excuses '${name}', which Zulip does not document`);
    }
    expect(problems).toEqual([]);
  });

  test("every declared parameter and alias exists in Zulip's file or the contract", () => {
    const problems: string[] = [];
    for (const ep of routes) {
      if (key(ep) in ZULIP_UNDOCUMENTED) continue;
      const op = operationOf(ep);
      const known = new Set([
        ...(op ? requestParams(op).map((p) => p.name) : []),
        ...(contract.get(key(ep)) ?? []),
        ...(CONTRACT_PROSE[key(ep)] ?? []),
        ...(ZULIP_PROSE[key(ep)] ?? []),
      ]);
      for (const [name, p] of Object.entries(ep.params))
        for (const n of [name, ...p.aliases])
          if (!known.has(n)) problems.push(`${key(ep)}: declares '${n}', which neither Zulip's file nor the contract lists for it`);
    }
    expect(problems).toEqual([]);
  });

  test(`at least ${REQUIRED_OPERATIONS} of the operations in Zulip's OpenAPI file are answered; the rest are named with a reason`, () => {
    const declared = new Set(routes.map(key));
    const zulipOps = ops.filter((o) => o.source === "zulip").map((o) => `${o.method} ${o.template}`);
    const served = zulipOps.filter((k) => declared.has(k));
    const problems: string[] = [];
    for (const k of zulipOps) {
      if (declared.has(k) && k in NOT_SERVED) problems.push(`${k}: answered, but NOT_SERVED says it is not`);
      if (!declared.has(k) && !(k in NOT_SERVED)) problems.push(`${k}: not answered and not listed in NOT_SERVED`);
    }
    for (const k of Object.keys(NOT_SERVED)) if (!zulipOps.includes(k)) problems.push(`${k}: listed, but not an operation of Zulip's file`);
    expect(problems).toEqual([]);
    expect(zulipOps.length).toBe(138);
    expect(served.length).toBeGreaterThanOrEqual(REQUIRED_OPERATIONS);
    expect(served.length).toBe(zulipOps.length - Object.keys(NOT_SERVED).length);
  });
});
