// Generated message text for the renderer's property tests: runs of Markdown and Zulip syntax, URLs,
// mentions, entities, indentation and Unicode, so that block and inline rules meet in every order.
import fc from "fast-check";

const FRAGMENTS = [
  ...["*", "**", "_", "__", "~", "~~", "`", "```", "~~~", "$$", "\\", "&", "<", ">", "|", "[", "]", "(", ")", "!", "#", "@", ":", "."],
  ...["\n", "\n\n", "\r\n", "\t", "  ", "    ", " ", "\u00a0", "\u200d", "\ufe0f"],
  ...["- ", "+ ", "* ", "1. ", "2) ", "> ", "# ", "### ", "---", "***", "| a | b |\n|---|---|\n| c | d |"],
  ...["```py\nx = 1\n```", "```quote\nq\n```", "```spoiler Head\ns\n```", "```math\nx^2\n```", "    code"],
  ...["word", "Word", "two words", "3.", "42", "é", "日本", "😀", "👍🏽", "🇫🇷", "1️⃣", "©"],
  ...["https://example.com/a_(b)?c=d#e", "http://x.org/img.png", "example.com", "a@b.co", "mailto:a@b.co", "javascript:alert(1)"],
  ...["[link](https://example.com)", "[](x.png)", "![img](y.png)", "<https://z.io>", "<time:2024-01-01T10:00:00Z>", "$$x^2$$"],
  ...["@**King Hamlet**", "@_**King Hamlet|12**", "@*support*", "@**all**", "@**topic**", "#**Verona**", "#**Verona>t@5**"],
  ...[":smile:", ":green_tick:", ":nope:", "#123", "RFC2616", "&amp;", "&#x41;", "&nbsp;", "\\*", "<b>x</b>", '"q"', "it's"],
];

/** Text made of the fragments above and arbitrary Unicode, up to a few hundred characters. */
export const markdownInput: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) }), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));

/** fast-check's run count and seed, from FC_RUNS and FC_SEED when set. */
export const propertyRuns = (defaultRuns: number) => ({
  numRuns: Number(process.env.FC_RUNS ?? defaultRuns),
  seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31),
});
