// Narrows: the app's address (location.hash, as Zulip's web app writes it) and the `narrow` terms of a
// message fetch. A view is either a message list for some terms or one of the special pages.
import type { Message, NarrowTerm } from "../api/types";

export type View =
  | { kind: "messages"; terms: NarrowTerm[]; near?: number }
  | { kind: "inbox" }
  | { kind: "recent" }
  | { kind: "drafts" }
  | { kind: "channels" }
  /** The extension layer's pages: #ext/plugins, #ext/secrets, #ext/runs, #ext/widget/<install>/<key>. */
  | { kind: "ext"; path: string[] }
  /** #organization/<section>[/<item>]: a settings page, and what it opens (a channel's editor). */
  | { kind: "organization"; section: string; item?: string };

const enc = (s: string) => encodeURIComponent(s).replace(/\./g, "%2E");
const slug = (name: string) => name.replace(/[^\p{L}\p{N}_-]+/gu, "-");

/** The hash for a view; `channelName` gives channel links their readable part. */
export function hashOf(view: View, channelName?: (id: number) => string | undefined): string {
  if (view.kind === "ext") return `#ext/${view.path.map(encodeURIComponent).join("/")}`;
  if (view.kind === "organization") return `#organization/${view.section}${view.item ? `/${view.item}` : ""}`;
  if (view.kind !== "messages") return `#${view.kind}`;
  if (view.terms.length === 0 && !view.near) return "#feed";
  const parts = view.terms.map(({ operator, operand, negated }) => {
    const op = (negated ? "-" : "") + operator;
    if (operator === "channel") return `${op}/${operand}-${slug(channelName?.(Number(operand)) ?? "")}`;
    if (operator === "dm") return `${op}/${(operand as number[]).join(",")}`;
    return `${op}/${enc(String(operand))}`;
  });
  if (view.near) parts.push(`near/${view.near}`);
  return `#narrow/${parts.join("/")}`;
}

export function parseHash(hash: string): View {
  const h = hash.replace(/^#/, "");
  if (h === "inbox" || h === "recent" || h === "drafts" || h === "channels") return { kind: h };
  if (h === "" || h === "feed") return { kind: "messages", terms: [] };
  if (h === "organization" || h.startsWith("organization/")) {
    const [, section = "", item] = h.split("/");
    return { kind: "organization", section, item };
  }
  const segs = h.split("/");
  if (segs[0] === "ext") return { kind: "ext", path: segs.slice(1).map(decodeURIComponent) };
  if (segs[0] !== "narrow") return { kind: "inbox" };
  const terms: NarrowTerm[] = [];
  let near: number | undefined;
  for (let i = 1; i + 1 < segs.length; i += 2) {
    let operator = segs[i]!;
    const negated = operator.startsWith("-");
    if (negated) operator = operator.slice(1);
    let raw: string;
    try {
      raw = decodeURIComponent(segs[i + 1]!);
    } catch {
      raw = segs[i + 1]!;
    }
    if (operator === "stream") operator = "channel";
    if (operator === "pm-with") operator = "dm";
    if (operator === "near" || operator === "with") {
      near = Number(raw);
      continue;
    }
    if (operator === "channel") terms.push({ operator, operand: parseInt(raw, 10), negated });
    else if (operator === "dm")
      terms.push({
        operator,
        operand: raw
          .split(",")
          .map(Number)
          .filter((n) => n > 0),
        negated,
      });
    else terms.push({ operator, operand: raw, negated });
  }
  return { kind: "messages", terms, near };
}

/** A stable key for one narrow's message list. */
export const narrowKey = (terms: NarrowTerm[]) => JSON.stringify(terms.map((t) => [t.negated ? "-" : "", t.operator, t.operand]));

export const term = (terms: NarrowTerm[], operator: string) => terms.find((t) => t.operator === operator && !t.negated)?.operand;

/** The user ids of a DM conversation other than me, sorted (empty: notes to self). */
export function dmPeers(m: Message, me: number): number[] {
  if (m.type !== "private" || typeof m.display_recipient === "string") return [];
  return m.display_recipient
    .map((r) => r.id)
    .filter((id) => id !== me)
    .sort((a, b) => a - b);
}

/** The `dm` operand naming a conversation: its other members, or me alone for notes to self. */
export const dmOperand = (peers: number[], me: number) => (peers.length ? peers : [me]);

/**
 * Whether a message (new, from an event) belongs to a list shown for these terms. Null when the app
 * cannot tell (full-text search, unknown operators): such lists are not extended live.
 */
export function matches(terms: NarrowTerm[], m: Message, me: number, mutedChannel: (id: number) => boolean): boolean | null {
  if (terms.length === 0) return !(m.type === "stream" && mutedChannel(m.stream_id!));
  for (const t of terms) {
    let ok: boolean | null;
    switch (t.operator) {
      case "channel":
        ok = m.type === "stream" && m.stream_id === Number(t.operand);
        break;
      case "topic":
        ok = m.type === "stream" && m.subject.toLowerCase() === String(t.operand).toLowerCase();
        break;
      case "dm": {
        const want = [...(t.operand as number[])].sort((a, b) => a - b).join(",");
        ok = m.type === "private" && dmOperand(dmPeers(m, me), me).join(",") === want;
        break;
      }
      case "sender":
        ok = m.sender_id === Number(t.operand) || m.sender_email === t.operand;
        break;
      case "is":
        if (t.operand === "dm" || t.operand === "private") ok = m.type === "private";
        else if (t.operand === "starred") ok = m.flags.includes("starred");
        else if (t.operand === "mentioned") ok = m.flags.some((f) => f.endsWith("mentioned"));
        else if (t.operand === "unread") ok = !m.flags.includes("read");
        else ok = null;
        break;
      default:
        ok = null;
    }
    if (ok === null) return null;
    if (ok === !!t.negated) return false;
  }
  return true;
}
