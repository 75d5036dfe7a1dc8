import { signal } from "@preact/signals";

/** One short message at the bottom of the screen (errors of actions, "Link copied"). */
export const toast = signal<{ text: string; error: boolean } | null>(null);
let timer: ReturnType<typeof setTimeout> | undefined;
export function say(text: string, error = false) {
  toast.value = { text, error };
  clearTimeout(timer);
  timer = setTimeout(() => (toast.value = null), error ? 6000 : 2500);
}
export const sayError = (e: unknown) => say((e as Error).message || "Something went wrong", true);
