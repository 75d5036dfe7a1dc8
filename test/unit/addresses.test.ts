// trusted_proxies: which address a request comes from, and when X-Forwarded-For is believed.
import { expect, test } from "bun:test";
import { clientAddress, inRange, parseRange, type AddressRange } from "../../src/lib/addresses";

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
