// The few images confab serves itself (their URLs: STATIC_IMAGES in domain/realms.ts), embedded in the
// executable as SVG text and drawn as PNG; and the emoji name document.
import { emojiDataPath, STATIC_IMAGES } from "../../domain/realms";
import { emojiDataDocument } from "../../render";
import { circle, drawPng, roundedRect, type Shape } from "../../lib/png";
import type { Page } from "./page";

const SQUARE = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">${inner}</svg>`;

const IMAGES: Record<string, string> = {
  [STATIC_IMAGES.icon]: SQUARE(
    '<rect width="64" height="64" rx="14" fill="#3b6ea5"/><path d="M14 18h36a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6H30l-10 8v-8h-6a6 6 0 0 1-6-6V24a6 6 0 0 1 6-6z" fill="#fff"/>',
  ),
  [STATIC_IMAGES.logo]: SQUARE('<path d="M14 18h36a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6H30l-10 8v-8h-6a6 6 0 0 1-6-6V24a6 6 0 0 1 6-6z" fill="#3b6ea5"/>'),
  [STATIC_IMAGES.unknownUser]: SQUARE(
    '<rect width="64" height="64" fill="#c8c8c8"/><circle cx="32" cy="24" r="11" fill="#fff"/><path d="M12 58c2-12 10-18 20-18s18 6 20 18z" fill="#fff"/>',
  ),
};

// The same pictures as PNG, for clients that cannot show SVG (zulip-flutter): drawn once, on first request.
const BLUE: [number, number, number] = [0x3b, 0x6e, 0xa5];
const WHITE: [number, number, number] = [255, 255, 255];
const GREY: [number, number, number] = [0xc8, 0xc8, 0xc8];
const bubble: Shape = (x, y) => roundedRect(8, 18, 56, 46, 6)(x, y) || (y >= 45 && y <= 54 && x >= 20 && x <= 30 - ((y - 45) * 10) / 9);
const PNGS: Record<string, () => Uint8Array> = {
  [STATIC_IMAGES.iconPng]: () =>
    drawPng(128, [
      [roundedRect(0, 0, 64, 64, 14), BLUE],
      [bubble, WHITE],
    ]),
  [STATIC_IMAGES.unknownUserPng]: () =>
    drawPng(128, [
      [roundedRect(0, 0, 64, 64, 0), GREY],
      [circle(32, 24, 11), WHITE],
      [(x, y) => y >= 40 && (x - 32) ** 2 / 400 + (y - 58) ** 2 / 324 <= 1, WHITE],
    ]),
};
const drawn = new Map<string, Uint8Array>();

const servePng: Page["handle"] = (_app, request) => {
  const path = new URL(request.url).pathname;
  let png = drawn.get(path);
  if (!png) drawn.set(path, (png = PNGS[path]!()));
  return new Response(png, { headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" } });
};

const serve: Page["handle"] = (_app, request) => {
  const svg = IMAGES[new URL(request.url).pathname];
  if (!svg) return new Response("Not Found", { status: 404 });
  return new Response(svg, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
};

/** The server_emoji_data_url document: its name carries its hash, so clients may cache it for good. */
const serveEmojiData: Page["handle"] = (_app, request) => {
  const doc = emojiDataDocument();
  if (new URL(request.url).pathname !== emojiDataPath(doc.hash)) return new Response("Not Found", { status: 404 });
  const etag = `"${doc.hash}"`;
  const headers = { "content-type": "application/json", "cache-control": "public, max-age=31536000, immutable", etag };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(doc.json, { headers });
};

export default [
  ...Object.keys(IMAGES).map((path) => ({ method: "GET" as const, path, handle: serve })),
  ...Object.keys(PNGS).map((path) => ({ method: "GET" as const, path, handle: servePng })),
  { method: "GET", path: "/static/generated/emoji/:file", handle: serveEmojiData },
] satisfies Page[];
