// trusted_proxies: which address a request comes from, and when X-Forwarded-For is believed.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { isIP } from "node:net";
import { clientAddress, inRange, ipVersion, parseRange, type AddressRange } from "../../src/lib/addresses";

const ranges = (...t: string[]) => t.map((x) => parseRange(x)!) as AddressRange[];

test("ranges: IPv4, IPv6, single addresses, IPv4-mapped peers; nonsense is refused", () => {
  expect(inRange("10.1.2.3", parseRange("10.0.0.0/8")!)).toBe(true);
  expect(inRange("11.1.2.3", parseRange("10.0.0.0/8")!)).toBe(false);
  expect(inRange("::ffff:10.1.2.3", parseRange("10.0.0.0/8")!)).toBe(true);
  expect(inRange("127.0.0.1", parseRange("127.0.0.1")!)).toBe(true);
  expect(inRange("127.0.0.2", parseRange("127.0.0.1")!)).toBe(false);
  expect(inRange("fd12::1", parseRange("fd00::/8")!)).toBe(true);
  expect(inRange("fe80::1", parseRange("fd00::/8")!)).toBe(false);
  expect(inRange("::1", parseRange("::1")!)).toBe(true);
  for (const bad of ["10.0.0.0/33", "example.com", "10.0.0/8", "::1/129", "1.2.3.4/x"]) expect(parseRange(bad)).toBeNull();
});

test("ipVersion tells addresses apart exactly as node:net's isIP does", () => {
  const cases = ["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:8:9", "::ffff:10.0.0.1", "1:2:3:4:5:6:1.2.3.4"];
  for (const bad of ["01.2.3.4", "1.2.3", "256.1.1.1", "", ":", ":::", "1:::2", "00000::", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3"]) cases.push(bad);
  for (const c of cases) expect([c, ipVersion(c) as number]).toEqual([c, isIP(c)]);
  // Strings made of the pieces addresses are made of, so most are near misses.
  const piece = fc.constantFrom(..."0123456789abcdefABCDEF:.", "::", "1.2.3.4", "255.255.255.255", "256", "ffff", "fFfF0");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 18 }), (parts) => {
      const s = parts.join("");
      expect([s, ipVersion(s) as number]).toEqual([s, isIP(s)]);
    }),
    { numRuns: 20_000 },
  );
});

test("X-Forwarded-For counts only from a trusted proxy, read from the right, skipping trusted hops", () => {
  const trusted = ranges("127.0.0.1", "10.0.0.0/8");
  expect(clientAddress("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9"); // not a proxy: ignored
  expect(clientAddress("127.0.0.1", "198.51.100.1", trusted)).toBe("198.51.100.1");
  expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.0.0.5", trusted)).toBe("198.51.100.1"); // spoofed left part ignored
  expect(clientAddress("127.0.0.1", null, trusted)).toBe("127.0.0.1");
  expect(clientAddress("127.0.0.1", "junk, 198.51.100.1", trusted)).toBe("198.51.100.1");
  expect(clientAddress("127.0.0.1", "198.51.100.1, junk", trusted)).toBe("127.0.0.1");
  expect(clientAddress("127.0.0.1", "198.51.100.1", [])).toBe("127.0.0.1"); // none configured
});
