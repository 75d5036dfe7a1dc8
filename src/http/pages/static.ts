// The few images confab serves itself (their URLs: STATIC_IMAGES in domain/realms.ts), embedded in the
// executable as SVG text.
import { STATIC_IMAGES } from "../../domain/realms";
import type { Page } from "./index";

const SQUARE = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">${inner}</svg>`;

const IMAGES: Record<string, string> = {
  [STATIC_IMAGES.icon]: SQUARE(
    '<rect width="64" height="64" rx="14" fill="#3b6ea5"/><path d="M14 18h36a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6H30l-10 8v-8h-6a6 6 0 0 1-6-6V24a6 6 0 0 1 6-6z" fill="#fff"/>',
  ),
  [STATIC_IMAGES.logo]: SQUARE(
    '<path d="M14 18h36a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6H30l-10 8v-8h-6a6 6 0 0 1-6-6V24a6 6 0 0 1 6-6z" fill="#3b6ea5"/>',
  ),
  [STATIC_IMAGES.unknownUser]: SQUARE('<rect width="64" height="64" fill="#c8c8c8"/><circle cx="32" cy="24" r="11" fill="#fff"/><path d="M12 58c2-12 10-18 20-18s18 6 20 18z" fill="#fff"/>'),
};

const serve: Page["handle"] = (_app, request) => {
  const svg = IMAGES[new URL(request.url).pathname];
  if (!svg) return new Response("Not Found", { status: 404 });
  return new Response(svg, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
};

export default Object.keys(IMAGES).map((path) => ({ method: "GET" as const, path, handle: serve })) satisfies Page[];
