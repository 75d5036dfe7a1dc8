// src/render/tokens.ts builds markdown-it's tokens and parser states itself (without markdown-it's
// slow field helper). Property: for any input and markdown-it configuration, the token stream is
// exactly markdown-it's own — same fields in the same order, same values, same prototype — and so
// is the HTML; the block state splits any text into the same lines. The seed is printed by
// fast-check on failure; FC_SEED replays it, FC_RUNS runs longer.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { MarkdownIt, Token } from "markdown-it";
import { usePlainTokens } from "../../src/render/tokens.ts";
import { markdownInput, propertyRuns } from "../helpers/markdown-input.ts";

const MarkdownItCtor = require("markdown-it") as typeof import("markdown-it").default;

const CONFIGS: [string, ConstructorParameters<typeof MarkdownItCtor>[1]][] = [
  ["default", { html: false, breaks: true, linkify: true }],
  ["default", { html: true, typographer: true }],
  ["commonmark", {}],
];

/** Every own field of every token, in order, recursively; the prototype too. */
function fields(tokens: Token[] | null): unknown {
  return tokens?.map((t) => ({
    prototype: Object.getPrototypeOf(t) === MarkdownItCtor.Token.prototype,
    entries: Object.entries(t).map(([k, v]) => [k, k === "children" ? fields(v as Token[] | null) : v]),
  }));
}

describe.each(CONFIGS)("markdown-it %s %j", (preset, options) => {
  const pristine: MarkdownIt = new MarkdownItCtor(preset as "default", options!);
  const plain: MarkdownIt = new MarkdownItCtor(preset as "default", options!);
  usePlainTokens(plain);

  test("tokens and HTML are markdown-it's own", () => {
    fc.assert(
      fc.property(markdownInput, (src) => {
        const expected = pristine.parse(src, {});
        const actual = plain.parse(src, {});
        expect(fields(actual)).toEqual(fields(expected));
        expect(plain.renderer.render(actual, plain.options, {})).toBe(pristine.renderer.render(expected, pristine.options, {}));
      }),
      propertyRuns(400),
    );
  });

  test("the block state finds markdown-it's lines, indents and columns", () => {
    // Lines of spaces, tabs and text in any arrangement, with or without a last "\n".
    const lines = fc.oneof(markdownInput, fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "a", "-", "`"), maxLength: 30 }));
    const lineFields = (md: MarkdownIt, src: string) => {
      const { bMarks, eMarks, tShift, sCount, bsCount, lineMax } = new md.block.State(src, md, {}, []);
      return { bMarks, eMarks, tShift, sCount, bsCount, lineMax };
    };
    fc.assert(
      fc.property(lines, (src) => {
        expect(lineFields(plain, src)).toEqual(lineFields(pristine, src));
      }),
      propertyRuns(1000),
    );
  });

  test("states and tokens have markdown-it's fields, in its order", () => {
    const stateFields = (md: MarkdownIt) => ({
      core: Object.keys(new md.core.State("x", md, {})),
      block: Object.keys(new md.block.State("x", md, {}, [])),
      inline: Object.keys(new md.inline.State("x", md, {}, [])),
      token: Object.keys(new md.block.State("x", md, {}, []).push("p", "p", 1)),
    });
    expect(stateFields(plain)).toEqual(stateFields(pristine));
  });
});
