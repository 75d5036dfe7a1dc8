// Every error the API answers comes from one catalogue, src/domain/errors.ts (code, HTTP status and
// wording together), so the docs, the web client and the tests read one text. Elsewhere an error is
// thrown by name; a message computed by a domain rule (a name check's reason) may be passed through.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, sourceFiles } from "../helpers/import-graph";

const CATALOGUE = "src/domain/errors.ts";
/** The browser client has its own ApiError (what it received); it is not an answer of the server. */
const ELSEWHERE = ["src/web/"];

const WRITTEN_INLINE: [string, RegExp][] = [
  ["an ApiError built outside the catalogue", /\bnew\s+ApiError\s*\(/],
  ["a message written at the throw", /\binvalidParam\(\s*["'`]/],
  ["a message assembled at the throw", /\binvalidParam\([^)]*["'`]\s*\+/],
];

function inlineErrors(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles("src", "cli")) {
    if (file === CATALOGUE || ELSEWHERE.some((e) => file.startsWith(e))) continue;
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        for (const [what, re] of WRITTEN_INLINE) if (re.test(line)) out.push(`${file}:${i + 1}: ${what}`);
      });
  }
  return out;
}

describe("error catalogue", () => {
  test("the check reads the sources", () => {
    expect(sourceFiles("src", "cli")).toContain(CATALOGUE);
  });

  test("no error message or ApiError is written outside src/domain/errors.ts", () => {
    expect(inlineErrors()).toEqual([]);
  });
});
