// Writes emoji-data.json (the picker's and the typeahead's emoji: categories, codes, names) from
// emoji-datasource, in the same code format the server uses (src/render/emoji.ts): lowercase hex code
// points joined by "-", without FE0F. Run `npx bun src/web/ui/emoji-data.gen.ts` after upgrading it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import entries from "emoji-datasource/emoji.json";

const byCategory = new Map<string, (string | number)[][]>();
const seen = new Set<string>();
for (const e of [...(entries as any[])].sort((a, b) => a.sort_order - b.sort_order)) {
  if (e.category === "Component") continue;
  const code = (e.non_qualified ?? e.unified).toLowerCase().replace(/-fe0f/g, "");
  if (seen.has(code)) continue;
  seen.add(code);
  if (!byCategory.has(e.category)) byCategory.set(e.category, []);
  byCategory.get(e.category)!.push([code, ...e.short_names]);
}
writeFileSync(join(import.meta.dir, "emoji-data.json"), JSON.stringify(Object.fromEntries(byCategory)));
