/**
 * `npm run docs:generate`: writes the files generated from the code (docs/configuration.md,
 * packaging/pps-edge.yaml, docs/errors.md). test/unit/docs/generated.test.ts fails while one is stale.
 */
import { writeFileSync } from "node:fs";
import { generatedFiles } from "./generated.js";

for (const [path, text] of Object.entries(generatedFiles())) {
  writeFileSync(new URL(`../../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
