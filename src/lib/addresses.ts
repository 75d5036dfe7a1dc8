// Client addresses behind reverse proxies. Only a proxy listed in trusted_proxies may say who the client
// is (X-Forwarded-For); anyone else could put any address there and dodge per-address throttling.
// Addresses are parsed here rather than with node:net's isIP/BlockList: importing node:net evaluates Node's
// stream modules at every start (~2 ms) for a few lines of parsing.

const V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** 4 or 6 for an IPv4 or IPv6 address in text (no brackets, no zone), 0 for anything else, as node:net's isIP. */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (V4.test(text)) return 4;
  // An IPv6 address may end in an IPv4 one ("::ffff:10.0.0.1"), which stands for two groups.
  const v4 = /:(\d+\.[\d.]*)$/.exec(text);
  if (v4 && !V4.test(v4[1]!)) return 0;
  const halves = (v4 ? `${text.slice(0, -v4[1]!.length)}0:0` : text).split("::");
  if (halves.length > 2) return 0;
  const groups = halves.flatMap((h) => (h === "" ? [] : h.split(":")));
  if (!groups.every((g) => HEX_GROUP.test(g))) return 0;
  return (halves.length === 2 ? groups.length <= 7 : groups.length === 8) ? 6 : 0;
}

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6), or null when it is not an address. */
function bytes(addr: string): Uint8Array | null {
  const a = addr
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  const v = ipVersion(a);
  const out = new Uint8Array(16);
  if (v === 4) {
    out[10] = out[11] = 0xff;
    a.split(".").forEach((p, i) => (out[12 + i] = Number(p)));
    return out;
  }
  if (v !== 6) return null;
  let text = a;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [x, y, z, w] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((x << 8) | y).toString(16)}:${((z << 8) | w).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const hs = head ? head.split(":") : [];
  const ts = tail ? tail.split(":") : [];
  const groups = tail === undefined ? hs : [...hs, ...Array(8 - hs.length - ts.length).fill("0"), ...ts];
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 0xff;
  });
  return out;
}

export interface AddressRange {
  base: Uint8Array;
  bits: number;
}

/** "10.0.0.0/8", "::1", "fd00::/8": a range, or null when the text is none. */
export function parseRange(text: string): AddressRange | null {
  const [addr, len] = text.split("/", 2) as [string, string | undefined];
  const base = bytes(addr);
  if (!base) return null;
  const mapped = ipVersion(addr.trim()) === 4;
  const max = mapped ? 32 : 128;
  const n = len === undefined ? max : /^\d+$/.test(len) ? Number(len) : NaN;
  if (!(n >= 0 && n <= max)) return null;
  return { base, bits: mapped ? n + 96 : n };
}

export function inRange(addr: string, r: AddressRange): boolean {
  const b = bytes(addr);
  if (!b) return false;
  for (let bit = 0; bit < r.bits; bit += 8) {
    const take = Math.min(8, r.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[bit / 8]! & mask) !== (r.base[bit / 8]! & mask)) return false;
  }
  return true;
}

/**
 * The real client address: the peer, unless the peer is a trusted proxy; then X-Forwarded-For read from
 * its right end (what the nearest proxy appended), skipping trusted proxies, and the first other
 * address is the client.
 */
export function clientAddress(peer: string, forwardedFor: string | null, trusted: readonly AddressRange[]): string {
  const isTrusted = (a: string) => trusted.some((r) => inRange(a, r));
  if (!trusted.length || !forwardedFor || !isTrusted(peer)) return peer;
  const hops = forwardedFor
    .split(",", 64)
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!bytes(hops[i]!)) return peer; // a malformed hop: believe nothing further left
    if (!isTrusted(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer;
}
