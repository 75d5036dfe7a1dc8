// A suggestion list under an input: ↑/↓ move, Enter or Tab picks, Esc closes. The input keeps focus;
// the list is announced as a listbox (aria-activedescendant).
import type { ComponentChildren } from "preact";

export interface Suggestion {
  key: string;
  label: ComponentChildren;
  /** What picking it does (inserts text, adds a recipient...). */
  pick: () => void;
}

export function Typeahead({ id, items, active, onHover }: { id: string; items: Suggestion[]; active: number; onHover: (i: number) => void }) {
  if (!items.length) return null;
  return (
    <ul class="typeahead" id={id} role="listbox" data-testid="typeahead">
      {items.map((s, i) => (
        <li
          key={s.key}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          class={i === active ? "active" : undefined}
          onMouseDown={(e) => (e.preventDefault(), s.pick())}
          onMouseEnter={() => onHover(i)}
        >
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** Key handling for an input that shows a Typeahead; true when the key was used. */
export function typeaheadKey(e: KeyboardEvent, items: Suggestion[], active: { value: number }, close: () => void): boolean {
  if (!items.length) return false;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    active.value = (active.value + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
  } else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
    items[Math.min(active.value, items.length - 1)]!.pick();
  } else if (e.key === "Escape") {
    close();
  } else return false;
  e.preventDefault();
  e.stopPropagation();
  return true;
}
