// npm run fixtures:refresh — copies the shared reference files (../shared) into test/fixtures/reference/.
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { REFERENCE_COPIES } from "../test/helpers/reference";

let missing = 0;
for (const r of REFERENCE_COPIES) {
  if (!existsSync(r.source)) {
    console.error(`fixtures:refresh: ${r.source} is not there`);
    missing++;
    continue;
  }
  const same = existsSync(r.copy) && readFileSync(r.copy).equals(readFileSync(r.source));
  if (!same) copyFileSync(r.source, r.copy);
  console.log(`${same ? "unchanged" : "updated  "} ${r.copy}`);
}
process.exit(missing ? 1 : 0);
