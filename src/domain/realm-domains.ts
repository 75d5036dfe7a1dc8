import type { RealmDomainRow } from "../db/schema";
import { domainExists, invalidDomain, noSuchDomain } from "./errors";

export const toApiRealmDomain = (d: RealmDomainRow) => ({ domain: d.domain, allow_subdomains: d.allowSubdomains });

/** Zulip's rules for an allowed email domain; returns why it is refused, or null. */
function domainProblem(domain: string): string | null {
  if (!domain) return "Domain can't be empty.";
  if (!domain.includes(".")) return "Domain must have at least one dot (.)";
  if (domain.length > 255) return "Domain is too long";
  if (domain.startsWith(".") || domain.endsWith(".")) return "Domain cannot start or end with a dot (.)";
  for (const part of domain.split(".")) {
    if (!part) return "Consecutive '.' are not allowed.";
    if (part.startsWith("-") || part.endsWith("-")) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(part)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** The domain as stored (trimmed, lower case), or `Invalid domain: <why>`. */
export function checkDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) throw invalidDomain(problem);
  return domain;
}

/** Whether an email address's domain is one of the realm's allowed domains. */
export function emailInDomains(email: string, domains: RealmDomainRow[]): boolean {
  const host = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.some((d) => host === d.domain || (d.allowSubdomains && host.endsWith("." + d.domain)));
}
