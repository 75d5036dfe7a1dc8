// Realm linkifiers: a regular expression and an RFC 6570 URL template
// ("https://github.com/zulip/zulip/issues/{id}"), applied to message text
// outside code and links, and to topics (`topic_links`).
import { toJsSyntax } from "../domain/linkifiers.ts";
import { findBareUrls } from "./bare-urls.ts";

export interface Linkifier {
  pattern: string;
  url_template: string;
}

export interface CompiledLinkifier {
  regex: RegExp;
  urlTemplate: string;
}

// Like Zulip, a match must start at the beginning, after white space or one of
// '"(,:< and must not run on into a letter or digit.
function compile(pattern: string): RegExp | null {
  const source = toJsSyntax(pattern);
  try {
    return new RegExp(`(?<=^|[\\s\\u0085'"(,:<])(?:${source})(?=$|[^\\p{L}\\p{N}])`, "gu");
  } catch {
    // Patterns that are valid re2 but not valid in Unicode mode (e.g. "\#").
    try {
      return new RegExp(`(?<=^|[\\s\\u0085'"(,:<])(?:${source})(?!\\w)`, "g");
    } catch {
      return null;
    }
  }
}

const compiledCache = new Map<string, RegExp | null>();

/** Compiled once per distinct pattern; an invalid pattern is skipped, never fatal. */
export function compileLinkifiers(linkifiers: readonly Linkifier[]): CompiledLinkifier[] {
  const out: CompiledLinkifier[] = [];
  for (const { pattern, url_template } of linkifiers) {
    if (!compiledCache.has(pattern)) {
      if (compiledCache.size > 1000) compiledCache.clear();
      compiledCache.set(pattern, compile(pattern));
    }
    const regex = compiledCache.get(pattern);
    if (regex) out.push({ regex, urlTemplate: url_template });
  }
  return out;
}

interface LinkifierMatch {
  index: number;
  text: string;
  url: string;
}

export function linkifierMatches(linkifier: CompiledLinkifier, text: string): LinkifierMatch[] {
  const found: LinkifierMatch[] = [];
  // exec() on the shared regex, not matchAll(), which copies the regex on every call (a render makes one call per text).
  const re = linkifier.regex;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // An empty match would link nothing and loop forever in callers that resume after it; step over one character.
    if (m[0] === "") {
      re.lastIndex += re.unicode && text.codePointAt(re.lastIndex)! > 0xffff ? 2 : 1;
      continue;
    }
    found.push({ index: m.index, text: m[0], url: expandUrlTemplate(linkifier.urlTemplate, m.groups ?? {}) });
  }
  return found;
}

// RFC 6570 operators: prefix, separator, whether values are named, what an
// empty named value looks like, and whether reserved characters pass through.
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  "": { first: "", sep: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifEmpty: "=", reserved: false },
};

const UNRESERVED_RE = /[A-Za-z0-9\-._~]/;
const RESERVED_RE = /[:/?#[\]@!$&'()*+,;=]/;

function encodeValue(value: string, allowReserved: boolean): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (UNRESERVED_RE.test(ch) || (allowReserved && (RESERVED_RE.test(ch) || /^%[0-9A-Fa-f]{2}/.test(value.slice(i))))) {
      out += ch;
    } else {
      const cp = value.codePointAt(i)!;
      const char = String.fromCodePoint(cp);
      out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
      i += char.length - 1;
    }
  }
  return out;
}

/** Expands an RFC 6570 (level 3, plus prefix modifiers) template with string variables. */
export function expandUrlTemplate(template: string, vars: Record<string, string | undefined>): string {
  return template.replace(/\{([^{}]*)\}/g, (_, expression: string) => {
    const op = expression !== "" && "+#./;?&".includes(expression[0]!) ? expression[0]! : "";
    const { first, sep, named, ifEmpty, reserved } = OPERATORS[op]!;
    const parts: string[] = [];
    for (const spec of expression.slice(op.length).split(",")) {
      const m = /^([A-Za-z0-9_.%]+)(?::(\d+)|\*)?$/.exec(spec);
      const raw = m ? vars[m[1]!] : undefined;
      if (raw === undefined) continue;
      const value = m![2] ? [...raw].slice(0, Number(m![2])).join("") : raw;
      const encoded = encodeValue(value, reserved);
      parts.push(named ? (value === "" ? m![1] + ifEmpty : `${m![1]}=${encoded}`) : encoded);
    }
    return parts.length ? first + parts.join(sep) : "";
  });
}

/**
 * Zulip's `topic_links` for a message: linkifier matches (earlier linkifiers
 * win overlaps) and bare URLs in the topic, in order of position. URLs are
 * returned unescaped; clients escape them when rendering.
 */
export function topicLinks(topic: string, linkifiers: readonly Linkifier[]): { url: string; text: string }[] {
  const candidates: (LinkifierMatch & { precedence: number })[] = [];
  compileLinkifiers(linkifiers).forEach((linkifier, precedence) => {
    for (const m of linkifierMatches(linkifier, topic)) candidates.push({ ...m, precedence });
  });
  candidates.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
  for (const u of findBareUrls(topic)) {
    // Zulip links scheme-less topic URLs over https.
    candidates.push({ index: u.index, text: u.text, url: u.hasScheme || u.url.startsWith("mailto:") ? u.url : "https://" + u.text, precedence: Infinity });
  }
  const applied: typeof candidates = [];
  for (const c of candidates) {
    if (applied.every((a) => c.index + c.text.length <= a.index || a.index + a.text.length <= c.index)) applied.push(c);
  }
  return applied.sort((a, b) => a.index - b.index).map(({ url, text }) => ({ url, text }));
}
