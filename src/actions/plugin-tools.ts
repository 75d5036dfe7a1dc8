// Calling a running plugin's tools for the agent.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import {
  invalidInputTool,
  pluginNotRunning,
  toolAnsweredSomethingOtherThan,
  toolDidNotAnswer,
  toolFailedHttp,
  toolTurnedOffAgent,
  unknownTool,
} from "../domain/errors";
import { requireHumanMember } from "./secrets";
import { pluginFor } from "./plugin-access";
import { pluginToolsSocket } from "./plugin-processes";
import { compileJsonSchema, type ValidateFunction } from "../lib/json-schema";

// ---- Tools ----

const toolInputs = new Map<string, ValidateFunction>();

/**
 * Calls one of a running plugin's tools for the agent: declared in its manifest, not among its
 * `disabled_tools`, the input checked against the tool's `input` schema. The plugin answers an HTTP
 * POST /tools/<name> with body {"install_id", "input"}: a remote plugin at its address, a process on
 * the Unix socket in EXT_TOOLS_SOCKET. Resolves to the JSON it answers with.
 */
export async function callPluginTool(
  app: App,
  realm: RealmRow,
  actor: UserRow | null,
  id: number,
  tool: string,
  input: unknown,
  o: { timeoutMs?: number } = {},
) {
  if (actor) requireHumanMember(actor);
  const p = await pluginFor(app, realm, actor, id);
  const spec = (p.manifest.provides.tools ?? []).find((t) => t.name === tool);
  if (!spec) throw unknownTool(tool);
  if (p.disabledTools.includes(tool)) throw toolTurnedOffAgent(tool);
  if (p.state !== "running") throw pluginNotRunning(p.name);
  if (spec.input) {
    const key = `${p.id}:${p.revision}:${tool}`;
    let check = toolInputs.get(key);
    if (!check) toolInputs.set(key, (check = compileJsonSchema(spec.input)));
    if (!check(input)) throw invalidInputTool(tool, check.errors![0]!.instancePath || "input", check.errors![0]!.message);
  }
  const remote = p.sourceKind === "remote";
  const url = remote ? `${p.source}/tools/${encodeURIComponent(tool)}` : `http://plugin/tools/${encodeURIComponent(tool)}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ install_id: p.id, input }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 60_000),
      ...(remote ? {} : { unix: pluginToolsSocket(app, p.id) }),
    });
  } catch (e) {
    throw toolDidNotAnswer(tool, (e as Error).message);
  }
  const text = await res.text();
  if (!res.ok) throw toolFailedHttp(tool, res.status, text ? `: ${text.split("\n")[0]!.slice(0, 200)}` : "");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw toolAnsweredSomethingOtherThan(tool);
  }
}
