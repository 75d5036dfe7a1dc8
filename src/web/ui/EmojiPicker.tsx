// The emoji picker (its own chunk, loaded on first use): search by name, or browse by category.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { allEmoji, searchEmoji, type EmojiChoice } from "./emoji";
import { emojiChar } from "./format";
import { realmEmoji } from "../store/state";

export default function EmojiPicker({ onPick }: { onPick: (e: EmojiChoice) => void }) {
  const list = useSignal<EmojiChoice[] | null>(null);
  const q = useSignal("");
  useEffect(() => void allEmoji().then((l) => (list.value = l)), []);
  if (!list.value) return <p>Loading emoji…</p>;
  const shown = q.value ? searchEmoji(list.value, q.value, 200) : list.value;
  const groups = new Map<string, EmojiChoice[]>();
  for (const e of shown) {
    const key = q.value ? "Results" : e.category;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(e);
  }
  return (
    <div class="emoji-picker">
      <input
        type="search"
        data-testid="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autoFocus
        value={q.value}
        onInput={(e) => (q.value = e.currentTarget.value)}
        onKeyDown={(e) => e.key === "Enter" && shown[0] && (e.preventDefault(), onPick(shown[0]))}
      />
      <div class="emoji-grid-wrap">
        {[...groups].map(([name, items]) => (
          <section key={name} aria-label={name}>
            <h3>{name}</h3>
            <div class="emoji-grid">
              {items.slice(0, q.value ? 200 : 400).map((e) => (
                <button
                  key={e.emoji_code}
                  class="emoji-cell"
                  title={`:${e.emoji_name}:`}
                  aria-label={e.emoji_name.replace(/_/g, " ")}
                  data-emoji-name={e.emoji_name}
                  onClick={() => onPick(e)}
                >
                  {e.reaction_type === "realm_emoji" ? (
                    <img class="emoji-img" src={realmEmoji.value[e.emoji_code]?.source_url} alt="" />
                  ) : (
                    emojiChar(e.emoji_code)
                  )}
                </button>
              ))}
            </div>
          </section>
        ))}
        {!shown.length && <p>No emoji match.</p>}
      </div>
    </div>
  );
}
