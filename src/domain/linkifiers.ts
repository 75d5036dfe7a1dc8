import type { LinkifierRow } from "../db/schema";

export const toApiLinkifier = (l: LinkifierRow) => ({ id: l.id, pattern: l.pattern, url_template: l.urlTemplate });

/**
 * Zulip's patterns are Python/re2 syntax (its documented example is `#(?P<id>[0-9]+)`): kept and
 * returned as written, matched through this JavaScript spelling of named groups and back-references.
 */
export const toJsSyntax = (pattern: string): string => pattern.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>");

/**
 * Checks a linkifier the way Zulip does: the pattern is a regular expression with named groups, and
 * the URL template (RFC 6570 level 1/2 expressions like {id} or {+path}) may only use those groups.
 * Returns an error message, or null when it is fine.
 */
export function checkLinkifier(pattern: string, urlTemplate: string): string | null {
  if (!pattern.trim()) return "Linkifier pattern cannot be blank";
  let re: RegExp;
  try {
    re = new RegExp(toJsSyntax(pattern), "u");
  } catch (e) {
    return `Bad regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}`;
  }
  const groups = new Set(Object.keys(new RegExp(`${re.source}|`, "u").exec("")?.groups ?? {}));
  let url: URL;
  try {
    url = new URL(urlTemplate.replace(/\{[+#]?([A-Za-z_][A-Za-z0-9_]*)\}/g, "x"));
  } catch {
    return "Enter a valid URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Enter a valid URL.";
  for (const m of urlTemplate.matchAll(/\{[+#]?([^}]*)\}/g)) {
    const name = m[1]!;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return "Invalid URL template.";
    if (!groups.has(name)) return `Group "${name}" in URL template is not present in linkifier pattern.`;
  }
  for (const g of groups) if (!urlTemplate.match(new RegExp(`\\{[+#]?${g}\\}`))) return `Group "${g}" in linkifier pattern is not present in URL template.`;
  return null;
}
