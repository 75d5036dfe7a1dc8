// Reads the route files' endpoint() declarations from the sources and checks that parameters are
// declared once: an endpoint whose `run` hands its parsed `args` to an action takes its table from that
// action (adding only path parameters), and the action's parameter is typed `Args<typeof table>`, so the
// two can never disagree. An endpoint that passes single values (`args.draft_id`) passes what the table
// declares, typed by the table, and needs nothing more.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, sourceFiles } from "./import-graph";

/** The text from `open` (an opening bracket) to its matching close, exclusive; strings and comments skipped. */
function balanced(text: string, open: number): string {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "/" && text[i + 1] === "/") i = text.indexOf("\n", i);
    else if (c === "/" && text[i + 1] === "*") i = text.indexOf("*/", i) + 1;
    else if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (!stack.length) return text.slice(open + 1, i);
    }
  }
  throw new Error(`unbalanced bracket at ${open}`);
}

/** Splits at commas outside brackets and strings (arguments, object entries, parameters). */
function topLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if ("([{<".includes(c)) depth++;
    else if (")]}>".includes(c) && text[i - 1] !== "=") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

/** The value of `key:` among an object literal's top-level entries. */
const entry = (body: string, key: string) =>
  topLevel(body)
    .find((e) => e.startsWith(`${key}:`))
    ?.slice(key.length + 1)
    .trim();

/** Where each imported name of a file comes from (a repository file), or nothing for a package. */
function imports(file: string, text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["'](\.[^"']+)["']/gm)) {
    const path = relative(ROOT, resolve(ROOT, dirname(file), m[2]!)) + ".ts";
    for (const name of m[1]!.split(",")) {
      const n = name
        .replace(/^\s*type\s+/, "")
        .trim()
        .split(/\s+as\s+/)
        .at(-1);
      if (n) out.set(n, path);
    }
  }
  return out;
}

/** The parameters of an exported function (declared or as an arrow), or null when none is found. */
function parametersOf(text: string, name: string): string[] | null {
  const m = new RegExp(`export\\s+(?:async\\s+)?function\\s+${name}\\s*(?:<[^(]*>)?\\(|export\\s+const\\s+${name}\\s*=\\s*(?:async\\s*)?\\(`).exec(text);
  return m ? topLevel(balanced(text, m.index + m[0].length - 1)) : null;
}

/** The table a type annotation derives from: `Args<typeof t>`, or a local alias of it. */
function derivedFrom(text: string, annotation: string): string | null {
  const direct = /^Args<typeof (\w+)>$/.exec(annotation);
  if (direct) return direct[1]!;
  const alias = new RegExp(`type\\s+${annotation}\\s*=\\s*Args<typeof (\\w+)>`).exec(text);
  return alias ? alias[1]! : null;
}

export interface Declared {
  file: string;
  route: string;
  problems: string[];
}

/** Checks one route file's text (`file` names it; imports resolve from it). */
export function checkRouteFile(
  file: string,
  text: string,
  read = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), "utf8") : ""),
): Declared[] {
  const imported = imports(file, text);
  const out: Declared[] = [];
  for (const m of text.matchAll(/\bendpoint\(/g)) {
    const call = topLevel(balanced(text, m.index + m[0].length - 1));
    const route = `${call[0]} ${call[1]}`.replace(/["'`]/g, "");
    const spec = balanced(call[2]!, 0);
    const params = entry(spec, "params") ?? "{}";
    const run = entry(spec, "run") ?? "";
    const problems: string[] = [];
    // What `run` does with args besides reading single values: it must pass it, whole, to one action.
    const body = run.replace(/^(?:async\s*)?\(\{[^}]*\}\)\s*=>/, "");
    const whole = [...body.matchAll(/\bargs\b(?!\s*\.)/g)];
    if (whole.length) {
      // The table: an action's, or a literal of path parameters and spread action tables.
      const tables: string[] = [];
      if (/^\w+$/.test(params)) tables.push(params);
      else if (!params.startsWith("{")) problems.push("builds its table in the route, not with its action");
      else
        for (const e of topLevel(balanced(params, 0))) {
          const spread = /^\.\.\.(\w+)$/.exec(e);
          if (spread) tables.push(spread[1]!);
          else if (!/^\w+:\s*p\.path\.\w+\(/.test(e) && !(/^\w+$/.test(e) && new RegExp(`const\\s+${e}\\s*=\\s*p\\.path\\.`).test(text)))
            problems.push(`declares ${e.split(":")[0]} in the route, not with its action`);
        }
      const calls = [...body.matchAll(/\b(\w+)\(/g)].filter((c) => topLevel(balanced(body, c.index + c[0].length - 1)).includes("args"));
      if (calls.length !== 1 || whole.length !== 1) problems.push("passes args other than whole, to one action");
      for (const c of calls) {
        const action = c[1]!;
        const source = imported.get(action);
        const at = topLevel(balanced(body, c.index + c[0].length - 1)).indexOf("args");
        const actionText = source ? read(source) : "";
        const parameter = parametersOf(actionText, action)?.[at];
        const annotation = parameter?.replace(/^\w+\??\s*:\s*/, "").trim() ?? "";
        const table = derivedFrom(actionText, annotation);
        if (!table) problems.push(`${action} types args by hand (${annotation || "not found"}), not Args<typeof table>`);
        else if (!tables.includes(table)) problems.push(`${action} takes Args<typeof ${table}> but the route declares ${tables.join(", ") || "its own"}`);
      }
    }
    if (problems.length) out.push({ file, route, problems });
  }
  return out;
}

/** Every route file's problems, as lines naming the route. */
export const routeParamProblems = (): string[] =>
  sourceFiles("src/http/routes").flatMap((file) =>
    checkRouteFile(file, readFileSync(join(ROOT, file), "utf8")).flatMap((d) => d.problems.map((p) => `${d.route} (${d.file}): ${p}`)),
  );
