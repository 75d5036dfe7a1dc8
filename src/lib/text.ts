/** The 1-based position of the first control, surrogate or unassigned character, or 0 when there is none
 * (Zulip refuses them in channel, folder and topic names). */
export function unprintableAt(text: string): number {
  const i = [...text].findIndex((ch) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch));
  return i + 1;
}

/** "1 row", "2 rows": a count and its noun, for messages to people. */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
