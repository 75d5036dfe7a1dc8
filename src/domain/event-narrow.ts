import type { ServerEvent } from "../events/types";

type Msg = {
  type: "stream" | "private";
  display_recipient: string | { email: string }[];
  subject?: string;
  sender_email?: string;
};

/**
 * register's `narrow` as a predicate over message events: every term must hold. Operators: channel
 * (stream), topic (subject), is:dm (is:private), sender, dm (pm-with); a negated term starts with "-".
 */
export function messageNarrowPredicate(narrow: [string, string][]): (event: ServerEvent) => boolean {
  const terms = narrow.map(([rawOp, operand]) => {
    const negated = rawOp.startsWith("-");
    const op = negated ? rawOp.slice(1) : rawOp;
    const lower = operand.toLowerCase();
    const test = (m: Msg): boolean => {
      switch (op) {
        case "stream":
        case "channel":
          return m.type === "stream" && String(m.display_recipient).toLowerCase() === lower;
        case "topic":
        case "subject":
          return m.type === "stream" && (m.subject ?? "").toLowerCase() === lower;
        case "is":
          return (lower === "dm" || lower === "private") && m.type === "private";
        case "sender":
          return (m.sender_email ?? "").toLowerCase() === lower;
        case "dm":
        case "pm-with": {
          if (m.type !== "private") return false;
          const wanted = new Set(lower.split(",").map((s) => s.trim()));
          return (m.display_recipient as { email: string }[]).some((r) => wanted.has(r.email.toLowerCase()));
        }
        default:
          return true; // operators that do not apply to live events do not filter
      }
    };
    return (m: Msg) => test(m) !== negated;
  });
  return (event) => {
    const m = event.message as Msg | undefined;
    return !!m && terms.every((t) => t(m));
  };
}
