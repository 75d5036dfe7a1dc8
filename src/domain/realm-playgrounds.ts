// Code playgrounds: a code block of a language gets a link that opens it in the playground.
import type { RealmPlaygroundRow } from "../db/schema";

export const toApiPlayground = (r: RealmPlaygroundRow) => ({ id: r.id, name: r.name, pygments_language: r.pygmentsLanguage, url_template: r.urlTemplate });

/** Checks a playground as Zulip does; returns the error message, or null. */
export function checkPlayground(name: string, language: string, urlTemplate: string): string | null {
  if (!name.trim()) return "Name cannot be blank";
  if (!language.trim()) return "Pygments language cannot be blank";
  if (!/^[ a-zA-Z0-9_+\-./#]*$/.test(language)) return "Invalid characters in pygments language";
  const names = [...urlTemplate.matchAll(/\{[+#./;?&]?([^}]*)\}/g)].map((m) => m[1]!);
  if (names.some((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) || /[{}]/.test(urlTemplate.replace(/\{[^{}]*\}/g, ""))) return "Invalid URL template.";
  try {
    const url = new URL(urlTemplate.replace(/\{[^}]*\}/g, "x"));
    if (url.protocol !== "http:" && url.protocol !== "https:") return "Invalid URL template.";
  } catch {
    return "Invalid URL template.";
  }
  if (names.length !== 1 || names[0] !== "code") return '"code" should be the only variable present in the URL template';
  return null;
}
