// renderMarkdown writes a plain sentence's paragraph itself, without markdown-it (src/render/plain-text.ts).
// Property: for any text — mostly plain, with URLs, mentions, channel links, emoji, list and quote
// markers, emphasis, code, math, entities, tables, newlines and Unicode mixed in — the result is the
// full renderer's, field for field. The seed is printed by fast-check on failure; FC_SEED replays
// it, FC_RUNS runs longer.
import { expect, test } from "bun:test";
import fc from "fast-check";
import type { RenderContext } from "../../src/render/index.ts";
import { renderMarkdown, renderWithMarkdownIt } from "../../src/render/markdown.ts";
import { plainParagraphHtml } from "../../src/render/plain-text.ts";
import { markdownInput, propertyRuns } from "../helpers/markdown-input.ts";

const CTX: RenderContext = {
  realmUrl: "http://zulip.testserver",
  userByName: (name) => (name.toLowerCase() === "king hamlet" ? { id: 12, full_name: "King Hamlet" } : null),
  userById: (id) => (id === 12 ? { id: 12, full_name: "King Hamlet" } : null),
  groupByName: (name) => (name === "support" ? { id: 17, name: "support" } : null),
  streamByName: (name) => (name === "Verona" ? { id: 3, name: "Verona" } : null),
  realmEmoji: (name) => (name === "green_tick" ? { id: "1", source_url: "/user_avatars/2/emoji/images/1.png", deactivated: false } : null),
  linkifiers: [
    { pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://github.com/zulip/zulip/issues/{id}" },
    { pattern: "RFC(?P<num>[0-9]+)", url_template: "https://tools.ietf.org/html/rfc{num}" },
    // Plain words a realm may link: the fast path must leave them to the full renderer.
    { pattern: "ticket (?P<n>[0-9]+)", url_template: "https://tickets.example.com/{n}" },
  ],
};

const WORDS = ["hello", "Sounds", "good", "ticket 42", "RFC2616", "e.g", "3.2", "1.", "I'll", "naïve", "Ωμέγα", "日本語", "I’m", "mañana"];
const PUNCTUATION = [" ", " ", " ", "  ", ".", ",", "?", "'", '"', "(", ")", "/", ";", "…", "—", "«", "»", "¿", "、"];
const SPECIAL = [
  ...["@", "@**King Hamlet**", "#", "#**Verona**", "#12", ":", ":smile:", "*", "**", "_", "~", "~~", "`", ">", "> ", "|", "$", "$$x$$", "&", "&amp;", "<"],
  ...["\n", "\n\n", "\r", "\t", "\u00a0", "\u2028", "\u0000", "!", "-", "- ", "+", "=", "^", "[", "]", "{", "}", "\\", "%"],
  ...["example.com", "https://example.com/x", "a@b.co", "x.png", "😀", "‼", "\ufe0f", "ℹ", "©", "1️⃣", "\u200d", "\ud800", "ﬁ", "\u0301"],
];

/** Mostly words, spaces and harmless punctuation, often led by a letter, so that about half the cases are plain. */
const mostlyPlain = fc
  .tuple(
    fc.constantFrom("", "Well ", "ok "),
    fc.array(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...WORDS) },
        { weight: 6, arbitrary: fc.constantFrom(...PUNCTUATION) },
        { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constantFrom(...SPECIAL) },
      ),
      { minLength: 1, maxLength: 14 },
    ),
  )
  .map(([lead, parts]) => lead + parts.join(""));

test("a plain sentence renders as the full renderer renders it", () => {
  let plain = 0;
  let runs = 0;
  fc.assert(
    fc.property(fc.oneof({ weight: 4, arbitrary: mostlyPlain }, { weight: 1, arbitrary: markdownInput }), (content) => {
      runs++;
      if (plainParagraphHtml(content, CTX) !== null) plain++;
      expect(renderMarkdown(content, CTX)).toEqual(renderWithMarkdownIt(content, CTX));
    }),
    propertyRuns(3000),
  );
  // The property says little unless the fast path is taken often.
  expect(plain / runs).toBeGreaterThan(0.2);
});

test.each([
  ["Sounds good, I'll take a look after lunch.", true],
  ["Ωμέγα; 日本語 (really?) — «oui» …", true],
  ["Hello world ", false],
  ["Hello world\u00a0", false],
  ["Hello\u3000world", false],
  ["2024 was long", false],
  ["costs 5 € → 6 €", false],
  ["3. item", false],
  ["see example.com", false],
  ["about ticket 42", false],
  ["hello 😀", false],
  ["note: this", false],
  ["a\nb", false],
])("%j takes the plain path: %p", (content, isPlain) => {
  expect(plainParagraphHtml(content, CTX) !== null).toBe(isPlain);
  expect(renderMarkdown(content, CTX)).toEqual(renderWithMarkdownIt(content, CTX));
});
