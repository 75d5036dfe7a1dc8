// Uploaded files: names, types, how they are served, and the attachment object.
import type { AttachmentRow } from "../db/schema";
import { fileTooLarge, noFile, oneFileOnly, quotaExceeded } from "./errors";

/** Zulip's sanitize_name: letters, digits, `_.-` kept; spaces and dashes runs become one dash. */
export function safeFileName(name: string): string {
  const base = name.normalize("NFKC").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .replace(/[^\p{L}\p{N}_\s.-]/gu, "")
    .trim()
    .replace(/[-\s]+/g, "-");
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "uploaded-file" : cleaned;
}

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  tif: "image/tiff",
  tiff: "image/tiff",
  heic: "image/heic",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  flac: "audio/flac",
  opus: "audio/opus",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  ogv: "video/ogg",
  pdf: "application/pdf",
  txt: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  xml: "application/xml",
  js: "text/javascript",
  css: "text/css",
  json: "application/json",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
};

/** The type the uploading client declared, else one guessed from the name's extension. */
export function uploadContentType(declared: string, name: string): string {
  const clean = declared.split(";")[0]!.trim().toLowerCase();
  if (/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(clean) && clean !== "application/octet-stream") return clean;
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || "application/octet-stream";
}

/**
 * Types a browser may show in its own tab (Zulip's INLINE_MIME_TYPES). Everything else, and in
 * particular anything that could run script (HTML, SVG, XML), is served as a download.
 */
const INLINE_TYPES = new Set([
  "application/pdf",
  "audio/aac",
  "audio/flac",
  "audio/mp4",
  "audio/mpeg",
  "audio/ogg",
  "audio/opus",
  "audio/wav",
  "audio/webm",
  "image/apng",
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/webp",
  "text/plain",
  "video/mp4",
  "video/ogg",
  "video/quicktime",
  "video/webm",
]);

export const servedInline = (contentType: string) => INLINE_TYPES.has(contentType);

/** The response headers of a served upload (RFC 6266 / 8187 filename; never sniffed, private cache). */
export function uploadHeaders(a: Pick<AttachmentRow, "contentType" | "pathId">, download = false): Record<string, string> {
  const name = a.pathId.split("/").pop()!;
  const inline = !download && servedInline(a.contentType);
  const fileExpr = /^[\x20-\x7e]*$/.test(name) ? `filename="${name.replace(/[\\"]/g, "\\$&")}"` : `filename*=utf-8''${encodeURIComponent(name)}`;
  return {
    "content-type": a.contentType === "text/plain" ? "text/plain; charset=utf-8" : a.contentType,
    "content-disposition": `${inline ? "inline" : "attachment"}; ${fileExpr}`,
    "x-content-type-options": "nosniff",
    "cache-control": "private, immutable",
  };
}

/** The attachment object of GET /attachments, the attachment events and detached_uploads. */
export const toApiAttachment = (a: AttachmentRow, messages: { id: number; dateSent: number }[]) => ({
  id: a.id,
  name: a.name,
  path_id: a.pathId,
  size: a.size,
  create_time: a.createTime * 1000,
  messages: messages.map((m) => ({ id: m.id, date_sent: m.dateSent * 1000 })),
});

export const uploadUrl = (pathId: string) => `/user_uploads/${pathId.split("/").map(encodeURIComponent).join("/")}`;

// Zulip answers these with an HTML page; through the API they come as JSON with the same status and words.
