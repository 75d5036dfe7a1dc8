// Randomness from Web Crypto (global, synchronous): node:crypto costs ~3 ms of every start to import.

/** `n` cryptographically random bytes. */
export const randomBytes = (n: number): Buffer => Buffer.from(crypto.getRandomValues(new Uint8Array(n)).buffer);

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random string over [a-zA-Z0-9]; rejection sampling keeps every character equally likely. */
export function randomToken(length = 32): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Compares two secrets in time that does not depend on where they first differ: every character of the
 * longer one is looked at. (No buffers: this runs on every authenticated request.)
 */
export function safeEqual(a: string, b: string): boolean {
  const n = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}
