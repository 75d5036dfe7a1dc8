// Small helpers shared by the inline rules for Zulip's syntax.
import type { StateInline } from "markdown-it";

/** A sticky (`y`) regex matched exactly at the parser's position and within its range. */
export function matchAt(re: RegExp, state: StateInline): RegExpExecArray | null {
  re.lastIndex = state.pos;
  const m = re.exec(state.src);
  return m && m.index + m[0].length <= state.posMax ? m : null;
}

/** Zulip starts mentions and channel links only at the start, after white space or one of '"(,:< . */
export function mayStartAt(src: string, pos: number): boolean {
  return pos === 0 || /[\s'"(,:<]/.test(src[pos - 1]!);
}
