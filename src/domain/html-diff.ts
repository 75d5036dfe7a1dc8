// content_html_diff for edit history: the new rendered HTML with inserted words wrapped in
// <span class="highlight_text_inserted"> and removed words put back inside
// <span class="highlight_text_deleted"> (Zulip's classes). Tags are kept from the new version; only
// text is compared, word by word.

type Token = { tag: boolean; text: string };

/** Tags, words and runs of white space. */
function tokenize(html: string): Token[] {
  const out: Token[] = [];
  for (const m of html.matchAll(/<[^>]*>|[^<\s]+|\s+/g)) out.push({ tag: m[0].startsWith("<"), text: m[0] });
  return out;
}

/** Longest common subsequence of the two word lists (classic dynamic programming on their lengths). */
function lcs(a: string[], b: string[]): boolean[][] {
  const n = a.length;
  const m = b.length;
  const len: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const keepA = new Array(n).fill(false);
  const keepB = new Array(m).fill(false);
  let i = 0,
    j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) (keepA[i] = true), (keepB[j] = true), i++, j++;
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return [keepA, keepB];
}

// Beyond this many words on either side the diff marks the whole text as changed rather than spend
// quadratic time (messages are at most max_message_length characters, so this is rare).
const MAX_WORDS = 3000;

export function htmlDiff(before: string, after: string): string {
  const a = tokenize(before).filter((t) => !t.tag);
  const b = tokenize(after);
  const bWords = b.filter((t) => !t.tag);
  const big = a.length > MAX_WORDS || bWords.length > MAX_WORDS;
  const [keepA, keepB] = big
    ? [a.map(() => false), bWords.map(() => false)]
    : lcs(
        a.map((t) => t.text),
        bWords.map((t) => t.text),
      );
  // Deleted words are shown just before the next kept word of the new version.
  const deletedBefore = new Map<number, string[]>();
  let ia = 0;
  for (let jb = 0; jb <= bWords.length; jb++) {
    if (jb < bWords.length && !keepB[jb]) continue;
    const gone: string[] = [];
    while (ia < a.length && !keepA[ia]) gone.push(a[ia++]!.text);
    if (gone.some((w) => w.trim())) deletedBefore.set(jb, gone);
    ia++;
  }
  let out = "";
  let w = 0;
  const del = (words: string[] | undefined) => (words ? `<span class="highlight_text_deleted">${words.join("")}</span>` : "");
  for (const t of b) {
    if (t.tag) {
      out += t.text;
      continue;
    }
    out += del(deletedBefore.get(w));
    out += keepB[w] || !t.text.trim() ? t.text : `<span class="highlight_text_inserted">${t.text}</span>`;
    w++;
  }
  return out + del(deletedBefore.get(bWords.length));
}
