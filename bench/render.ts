// Markdown rendering speed, in this process (rendering is pure: no server needed): a typical short
// message with a mention, a linkifier, emphasis, an emoji, a URL and a topic link.
import { renderMarkdown, type RenderContext } from "../src/render";
import type { BenchContext, BenchResult } from "./lib/types";

const CTX: RenderContext = {
  realmUrl: "http://chat.example.com",
  userByName: (n) => (n.toLowerCase() === "king hamlet" ? { id: 11, full_name: "King Hamlet" } : null),
  userById: (id) => (id === 11 ? { id: 11, full_name: "King Hamlet" } : null),
  groupByName: () => null,
  streamByName: (n) => (n === "Verona" ? { id: 5, name: "Verona" } : null),
  realmEmoji: () => null,
  linkifiers: [{ pattern: "#(?<id>[0-9]+)", url_template: "https://tracker.example.com/{id}" }],
};
const MESSAGE = "Hey @**King Hamlet**, can you look at #123? The **deploy** broke :cry: see https://example.com/logs and #**Verona>deploys**";

export async function run(ctx: BenchContext): Promise<BenchResult> {
  for (let i = 0; i < 2000; i++) renderMarkdown(MESSAGE, CTX);
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 5000; i++) renderMarkdown(MESSAGE, CTX);
    rounds.push(((performance.now() - t0) / 5000) * 1000);
  }
  rounds.sort((a, b) => a - b);
  const median = rounds[2]!;
  ctx.log(`typical message: ${median.toFixed(1)} µs per render (median of 5 rounds of 5,000)`);
  return {
    figures: { typical_message_us: Math.round(median * 10) / 10, rounds_us: rounds.map((x) => x.toFixed(1)).join(" ") },
    targets: [{ label: "a typical short message renders in (median)", value: Math.round(median * 10) / 10, unit: "µs", op: "<", limit: 1000 }],
  };
}
