// Plain text of rendered message HTML, for the search index: what a reader
// sees, with TeX indexed by its source rather than by KaTeX's glyph soup.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const VOID_TAGS = new Set(["br", "hr", "img", "input", "wbr"]);
const BLOCK_TAGS = new Set(["p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table"]);

const decodeEntities = (s: string): string =>
  !s.includes("&")
    ? s
    : s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
        if (name[0] === "#") {
          const cp = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
        }
        return ENTITIES[name.toLowerCase()] ?? whole;
      });

/** Text of HTML produced by renderMarkdown (not a general HTML parser). */
export function textForSearch(html: string): string {
  let out = "";
  // One entry per open element: is its text indexed?
  const visible: boolean[] = [];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g)) {
    const [, closing, rawTag, attrs = "", text] = m;
    if (text !== undefined) {
      if (visible.at(-1) ?? true) out += decodeEntities(text);
      continue;
    }
    const tag = rawTag!.toLowerCase();
    if (tag === "br") out += "\n";
    if (tag === "img") out += decodeEntities(/\balt="([^"]*)"/.exec(attrs)?.[1] ?? "");
    if (VOID_TAGS.has(tag)) continue;
    if (closing) {
      visible.pop();
      if (BLOCK_TAGS.has(tag)) out += "\n";
      continue;
    }
    const parentVisible = visible.at(-1) ?? true;
    // KaTeX writes each formula twice (MathML and HTML); only the TeX annotation inside the MathML is kept.
    if (tag === "annotation") visible.push(true);
    else if (/\bclass="katex-(?:mathml|html)"/.test(attrs)) visible.push(false);
    else visible.push(parentVisible);
  }
  return out.replace(/\n{2,}/g, "\n").trim();
}
