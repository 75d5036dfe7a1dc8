// The repository's copies of Zulip's OpenAPI file and the API contract against their sources in the
// shared folder, where a clone has one beside it. A lone clone checks only that the copies are usable.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { REFERENCE_COPIES, sharedPresent } from "../helpers/reference";

describe("reference copies", () => {
  test.each(REFERENCE_COPIES.map((r) => [basename(r.copy), r] as const))("%s is in the repository", (_, r) => {
    expect(existsSync(r.copy)).toBe(true);
    expect(readFileSync(r.copy, "utf8").length).toBeGreaterThan(10_000);
  });

  test("match their sources in ../shared, where it exists", () => {
    if (!sharedPresent()) {
      console.log("reference copies: no ../shared beside this clone; the tests use test/fixtures/reference/ as it is");
      expect(REFERENCE_COPIES.every((r) => existsSync(r.copy))).toBe(true);
      return;
    }
    const differing = REFERENCE_COPIES.filter((r) => !existsSync(r.source) || !readFileSync(r.copy).equals(readFileSync(r.source))).map(
      (r) => `${r.copy} differs from ${r.source} (npm run fixtures:refresh copies it again)`,
    );
    expect(differing).toEqual([]);
  });
});
