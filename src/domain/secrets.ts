// Organization secrets: the name rules, the hint, and the `secret` object members see.
import type { SecretRow } from "../db/schema";
import { argumentCannotBeEmpty, tooLongLimitCharacters } from "./errors";

export const SECRET_LIMITS = { name: 64, value: 4096, note: 200, hintFrom: 16 } as const;

/** Names every run needs for itself: a secret may not replace them in a run's environment. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "PWD",
  "OLDPWD",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TERM",
  "TZ",
  "LANG",
  "LANGUAGE",
  "HOSTNAME",
  "IFS",
  "PS1",
  "MAIL",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "FTP_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
]);

/**
 * Prefixes the runtime owns: EXT_ (what the plugin host and the agent runtime give every run), the
 * locale and the dynamic linker, confab's own configuration, and the variables git, Bun, Node and the
 * Zulip API bindings read (a plugin gets its bot's credentials as ZULIP_SITE/ZULIP_EMAIL/ZULIP_API_KEY).
 */
export const RESERVED_PREFIXES = ["EXT_", "LC_", "LD_", "CONFAB_", "ZULIP_", "GIT_", "BUN_", "NODE_", "NPM_", "XDG_", "SSH_", "DYLD_"] as const;

/** Why a name is refused, or null when it may be used (the organization's own names aside). */
export function secretNameProblem(name: string): string | null {
  if (!name) return "Secret name cannot be empty";
  if ([...name].length > SECRET_LIMITS.name) return `Secret name is too long (limit: ${SECRET_LIMITS.name} characters)`;
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) return "Secret names use only capital letters, digits and '_', and do not start with a digit";
  if (RESERVED_NAMES.has(name)) return `Secret name '${name}' is reserved: every run sets it itself`;
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `Secret names starting with '${prefix}' are reserved for the runtime`;
  return null;
}

/** A value of 1 to 4096 characters (code points), kept exactly as sent. */
export function checkSecretValue(value: string, name = "secret") {
  const n = [...value].length;
  if (n === 0) throw argumentCannotBeEmpty(name);
  if (n > SECRET_LIMITS.value) throw tooLongLimitCharacters(name, SECRET_LIMITS.value);
}

/** The last four characters of a value of 16 characters or more; otherwise nothing. */
export function secretHint(value: string): string {
  const chars = [...value];
  return chars.length >= SECRET_LIMITS.hintFrom ? chars.slice(-4).join("") : "";
}

export const toApiSecret = (s: SecretRow) => ({
  name: s.name,
  hint: s.hint,
  note: s.note,
  added_by: s.addedBy,
  date_added: s.dateAdded,
  replaced_by: s.replacedBy,
  date_replaced: s.dateReplaced,
  date_used: s.dateUsed,
});
