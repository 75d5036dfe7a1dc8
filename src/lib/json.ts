// JSON from clients, parsed without recursing over their nesting: JSON.parse and every walk over its
// result recurse once per level, so a value nested 10,000 deep overflows the stack. The depth is
// measured first by a flat scan of the text.

/** How deeply request JSON may nest (Zulip's own parameters need fewer than 10 levels). */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (strings skipped), scanned without recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

export class TooDeep extends Error {}

/** JSON.parse for untrusted text: throws TooDeep past MAX_JSON_DEPTH, SyntaxError when malformed. */
export function parseJson(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new TooDeep();
  return JSON.parse(text);
}
