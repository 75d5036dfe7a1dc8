// A navigation view as the API shows it.
import type { NavigationViewRow } from "../db/schema";

export const toApiView = (v: NavigationViewRow) =>
  v.name === null ? { fragment: v.fragment, is_pinned: v.isPinned } : { fragment: v.fragment, is_pinned: v.isPinned, name: v.name };
