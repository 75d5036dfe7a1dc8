// AES-256-GCM for values kept at rest (organization secrets, plugin secret slots). The key never sits
// in the database: it comes from the environment or from a key file beside it, readable by its owner
// only, so a copied database file alone reveals nothing.
import type * as NodeCrypto from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "./random";

// node:crypto (its ciphers) is loaded by the first secret sealed or opened, not at every start (~3 ms).
const cipherKit = () => require("node:crypto") as typeof NodeCrypto;

export const KEY_FILE = "secrets.key";
const VERSION = "v1";

export class KeyError extends Error {}

/** A 32-byte key written as 64 hex digits or as base64. */
function parseKey(text: string, from: string): Buffer {
  const s = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(s) ? Buffer.from(s, "hex") : Buffer.from(s, "base64");
  if (key.length !== 32) throw new KeyError(`${from}: the secrets key must be 32 bytes (64 hex digits or base64)`);
  return key;
}

/**
 * The key: `envKey` when given (CONFAB_SECRETS_KEY), else `<dataDir>/secrets.key`, created on first
 * use with mode 0600. A key file others can read is refused, as ssh refuses a readable private key.
 */
export function loadKey(dataDir: string, envKey: string | undefined): Buffer {
  if (envKey) return parseKey(envKey, "CONFAB_SECRETS_KEY");
  const file = join(dataDir, KEY_FILE);
  try {
    // "wx": when two processes (server, CLI) race to create it, one wins and the other reads its key.
    writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600); // the umask may have narrowed the mode further, never widened it; be exact
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  if (statSync(file).mode & 0o077) throw new KeyError(`${file} must be readable by its owner only (chmod 600 ${file})`);
  return parseKey(readFileSync(file, "utf8"), file);
}

/** Where the key loadKey would use comes from, checked but never created; KeyError when it is unusable. */
export function inspectKey(dataDir: string, envKey: string | undefined): string {
  if (envKey) {
    parseKey(envKey, "CONFAB_SECRETS_KEY");
    return "CONFAB_SECRETS_KEY";
  }
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) return `${file} (created with the first secret)`;
  if (statSync(file).mode & 0o077) throw new KeyError(`${file} must be readable by its owner only (chmod 600 ${file})`);
  parseKey(readFileSync(file, "utf8"), file);
  return file;
}

/**
 * `v1:<iv>:<tag>:<ciphertext>` (base64 parts). `context` is bound as associated data, so a value
 * copied into another row (another name, realm or plugin) fails to decrypt instead of leaking there.
 */
export function encrypt(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = cipherKit().createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ct.toString("base64")].join(":");
}

export function decrypt(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ct] = sealed.split(":");
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new KeyError("unreadable encrypted value");
  const decipher = cipherKit().createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new KeyError("an encrypted value does not open with this secrets key (was the key replaced?)");
  }
}
