// URL policy: which link targets may appear in rendered HTML, how links into
// this server are made relative, and how narrow URLs are spelled.

/**
 * Schemes a link may use: Zulip's list (http, https, ftp, file, plus the
 * WHATWG "safelisted" schemes). Anything else — javascript:, vbscript:,
 * data:, blob:, custom app schemes — never becomes a link.
 */
const ALLOWED_SCHEMES = new Set([
  "http",
  "https",
  "ftp",
  "file",
  "bitcoin",
  "geo",
  "im",
  "irc",
  "ircs",
  "magnet",
  "mailto",
  "matrix",
  "mms",
  "news",
  "nntp",
  "openpgp4fpr",
  "sip",
  "sms",
  "smsto",
  "ssh",
  "tel",
  "urn",
  "webcal",
  "wtai",
  "xmpp",
]);

const SCHEME_RE = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Zulip's sanitize_url: null when the link must not exist. A URL without a
 * scheme is a root-relative path, a fragment, an e-mail address (mailto:) or
 * else a host name, which gets "http://" — so any text that merely looks like
 * a scheme after control characters or entities ("\tjavascript:") ends up
 * as a harmless http URL instead of a script.
 */
export function sanitizeUrl(raw: string): string | null {
  const url = raw.trim();
  if (url === "") return null;
  const scheme = SCHEME_RE.exec(url);
  if (scheme) return ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase()) ? url : null;
  if (url.startsWith("/") || url.startsWith("#")) return url;
  const pathStart = url.search(/[/?#]/);
  if (url.slice(0, pathStart < 0 ? undefined : pathStart).includes("@")) return "mailto:" + url;
  return "http://" + url;
}

/** Final check on an href after markdown-it has percent-encoded it. */
export function isSafeHref(href: string): boolean {
  const scheme = SCHEME_RE.exec(href);
  return scheme ? ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase()) : href !== "";
}

/**
 * Links to narrows and uploads on this realm become relative, as Zulip does,
 * so they open in the same client instead of a new browser tab.
 */
export function relativizeRealmUrl(href: string, realmUrl: string): string {
  const prefix = realmUrl.replace(/\/+$/, "") + "/";
  if (href.startsWith(prefix + "#") || href.startsWith(prefix + "user_uploads/")) return href.slice(prefix.length);
  return href;
}

/** The path id of an uploaded file this link points at, if any ("2/ab/cd/file.png"). */
export function uploadPathId(href: string, realmUrl: string): string | null {
  const local = relativizeRealmUrl(href, realmUrl);
  const m = /^\/?user_uploads\/([^?#]+)/.exec(local);
  return m ? m[1]! : null;
}

/**
 * Zulip's hash encoding for narrow URLs: percent-encode everything but
 * letters, digits and `-_.~*`, then write "%" as "." and "." as ".2E" so the
 * result survives inside a URL fragment.
 */
export function encodeHashComponent(s: string): string {
  const encoded = encodeURIComponent(s).replace(/[!'()]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  return encoded.replace(/[%.]/g, (c) => (c === "%" ? "." : ".2E"));
}

/** "9-announce": the channel operand of a narrow URL. */
export const channelSlug = (id: number, name: string): string => `${id}-${encodeHashComponent(name.replace(/ /g, "-"))}`;

const IMAGE_EXTENSIONS = [".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"];
const VIDEO_EXTENSIONS = [".mp4", ".webm"];

/** The kind of inline preview Zulip would show for a link, judged by the path's extension. */
export function previewKind(href: string): "image" | "video" | null {
  let path: string;
  try {
    const u = new URL(href, "http://local.invalid");
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    // pasteboard.co serves HTML pages under image-like names.
    if (u.hostname === "pasteboard.co") return null;
    path = u.pathname.toLowerCase();
  } catch {
    return null;
  }
  if (IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext))) return "image";
  if (VIDEO_EXTENSIONS.some((ext) => path.endsWith(ext))) return "video";
  return null;
}

/** A relative link to a message: in its topic, or in its direct-message conversation (every participant). */
export const messageNarrowUrl = (
  id: number,
  where: { channel: { id: number; name: string }; topic: string } | { participantIds: readonly number[] },
): string =>
  "channel" in where
    ? `#narrow/channel/${channelSlug(where.channel.id, where.channel.name)}/topic/${encodeHashComponent(where.topic)}/near/${id}`
    : `#narrow/dm/${where.participantIds.join(",")}-${where.participantIds.length > 2 ? "group" : "dm"}/near/${id}`;
