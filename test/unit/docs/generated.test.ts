/**
 * The files written from the code by `npm run docs:generate` (docs/configuration.md and
 * packaging/pps-edge.yaml from the config schema, docs/errors.md from the error codes) are the ones
 * committed: a change to the schema or the codes without running it fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generatedFiles } from "../../../scripts/docs/generated.js";

describe("the generated documents", () => {
  for (const [path, text] of Object.entries(generatedFiles())) {
    it(`${path} is what npm run docs:generate writes`, () => {
      const committed = readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
      expect(committed, `${path} is stale: run npm run docs:generate`).toBe(text);
    });
  }
});
