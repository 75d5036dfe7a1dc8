// HTML building blocks shared by every part of the renderer. All text that
// reaches the output goes through one of the two escapers below; nothing is
// interpolated raw.

const TEXT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': "&quot;" };

const TEXT_SPECIAL_RE = /[&<>]/;

/** Escapes text content. Quotes stay literal, as in Zulip's output (`it's`, `"x"`). Most text needs no escape. */
export const escapeText = (s: string): string => (TEXT_SPECIAL_RE.test(s) ? s.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!) : s);

/** Escapes a double-quoted attribute value. */
export const escapeAttr = (s: string): string => s.replace(/[&<>"]/g, (c) => ATTR_ESCAPES[c]!);

/**
 * Opening tag with attributes in alphabetical order, which is how Zulip's
 * server serializes them (`<span aria-label=… class=… role=… title=…>`);
 * clients that compare markup byte for byte see the same string.
 */
export function openTag(tag: string, attrs: Record<string, string | undefined> = {}): string {
  let out = "<" + tag;
  for (const name of Object.keys(attrs).sort()) {
    const value = attrs[name];
    if (value !== undefined) out += ` ${name}="${escapeAttr(value)}"`;
  }
  return out + ">";
}

/** A whole element whose content is plain text. */
export const element = (tag: string, attrs: Record<string, string | undefined>, text: string): string => openTag(tag, attrs) + escapeText(text) + `</${tag}>`;
