// The open view lives in location.hash (#narrow/channel/12-general/topic/hello, #inbox...), so links,
// reloads and the back button work.
import { signal } from "@preact/signals";
import type { NarrowTerm } from "../api/types";
import { hashOf, parseHash, type View } from "./narrow";
import { streams, subs } from "./state";

export const view = signal<View>(parseHash(location.hash));
export const drawerOpen = signal(false);

export const channelName = (id: number): string | undefined => subs.value.get(id)?.name ?? streams.value.get(id)?.name;

export const hrefOf = (v: View) => hashOf(v, channelName);
export const narrowHref = (terms: NarrowTerm[], near?: number) => hrefOf({ kind: "messages", terms, near });
export const channelHref = (id: number) => narrowHref([{ operator: "channel", operand: id }]);
export const topicHref = (id: number, topic: string) =>
  narrowHref([
    { operator: "channel", operand: id },
    { operator: "topic", operand: topic },
  ]);
export const dmHref = (ids: number[]) => narrowHref([{ operator: "dm", operand: ids }]);

/** The hash whose view is shown: a link's click shows it before its hashchange event arrives. */
let shown = location.hash;
function show(h: string) {
  shown = h;
  view.value = parseHash(h);
  drawerOpen.value = false;
}

export function go(v: View | string) {
  const h = typeof v === "string" ? v : hrefOf(v);
  if (location.hash !== h) location.hash = h;
  else show(h);
}

addEventListener("hashchange", () => {
  if (location.hash !== shown) show(location.hash);
});

// The browser fires hashchange a task after a link's click, and by then someone quick (or a test) may
// be typing a topic into the compose box, which the new narrow would then reset: show it at once.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.("a[href^='#']");
  const h = a?.getAttribute("href");
  if (h && h.length > 1 && !a!.hasAttribute("target") && h !== location.hash) show(h);
});
