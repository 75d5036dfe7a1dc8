// The API-key comparison: equal strings only, whatever their lengths or where they differ.
import { expect, test } from "bun:test";
import { randomToken, safeEqual } from "../../src/lib/random";

test("safeEqual is string equality", () => {
  const key = randomToken(32);
  expect(safeEqual(key, key.slice())).toBe(true);
  expect(safeEqual("", "")).toBe(true);
  for (const other of [
    "",
    key.slice(0, 31),
    key + "x",
    (key[0] === "x" ? "y" : "x") + key.slice(1), // another first character (a random key may start with x)
    key.slice(0, 31) + "\u0000",
    key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase(),
  ])
    expect({ other, equal: safeEqual(key, other) }).toEqual({ other, equal: false });
  // A string that is a prefix padded with NUL characters is not equal either.
  expect(safeEqual("ab", "ab\u0000")).toBe(false);
  expect(safeEqual("ab\u0000", "ab")).toBe(false);
});

test("randomToken: the length asked for, letters and digits only", () => {
  for (const n of [1, 20, 32, 100]) expect(randomToken(n)).toMatch(new RegExp(`^[A-Za-z0-9]{${n}}$`));
  expect(new Set(Array.from({ length: 100 }, () => randomToken(32))).size).toBe(100);
});
