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

export function go(v: View | string) {
  const h = typeof v === "string" ? v : hrefOf(v);
  if (location.hash !== h) location.hash = h;
  else view.value = parseHash(h);
  drawerOpen.value = false;
}

addEventListener("hashchange", () => {
  view.value = parseHash(location.hash);
  drawerOpen.value = false;
});
