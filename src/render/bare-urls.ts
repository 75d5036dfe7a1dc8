// Finding bare URLs and e-mail addresses in plain text ("example.com",
// "https://x.org/a_(b)", "a@b.com") with linkify-it, which markdown-it
// bundles, tuned to Zulip's choices.
import type { MarkdownIt } from "markdown-it";

let configured: MarkdownIt["linkify"] | undefined;

/** markdown-it owns a configured linkify-it instance; borrowing it avoids depending on linkify-it directly. Made on first use. */
function linkifier() {
  if (configured) return configured;
  const MarkdownIt = require("markdown-it") as typeof import("markdown-it").default; // its CommonJS build: the constructor itself
  const linkify = new MarkdownIt("zero").linkify;
  // Protocol-relative "//host" is not a link in Zulip ("https:smiley://x" stays text).
  linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false }).add("//", null);
  // Popular generic TLDs beyond linkify-it's defaults (which already include every two-letter country code).
  linkify.tlds(["app", "dev", "xyz", "tech", "cloud", "site", "online", "chat", "page", "blog", "team", "tools", "zone"], true);
  return (configured = linkify);
}

// Zulip ignores these TLDs without a scheme: they are mostly file names (readme.md, views.py).
const FILE_LIKE_TLDS = new Set(["java", "md", "mov", "py", "zip"]);

interface BareUrl {
  index: number;
  lastIndex: number;
  /** What was written. */
  text: string;
  /** Where it leads: "http://" or "mailto:" added when the text had no scheme. */
  url: string;
  hasScheme: boolean;
}

// Every link linkify-it finds has a dot followed by more (a host's TLD, an e-mail domain, an IP) or a
// scheme's "://" or "mailto:": text with none of them is skipped before its much costlier scan.
const MAY_LINK = /\.[^\s.]|:\/\/|mailto:/i;

export function findBareUrls(text: string): BareUrl[] {
  if (!MAY_LINK.test(text)) return [];
  const linkify = linkifier();
  if (!linkify.test(text)) return [];
  const found: BareUrl[] = [];
  for (const m of linkify.match(text) ?? []) {
    const hasScheme = m.schema !== "";
    if (!hasScheme && !m.url.startsWith("mailto:")) {
      const host = /^[a-z]+:\/\/([^/?#:]+)/i.exec(m.url)?.[1] ?? "";
      if (FILE_LIKE_TLDS.has(host.slice(host.lastIndexOf(".") + 1).toLowerCase())) continue;
    }
    found.push({ index: m.index, lastIndex: m.lastIndex, text: m.text, url: m.url, hasScheme });
  }
  return found;
}
