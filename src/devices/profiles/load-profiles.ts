/**
 * Reads every `*.json` in a folder (not recursive: fixtures may live in sub-folders) and returns the
 * profiles by id. The thin IO shell around validate-profile.ts.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FirmwareProfile } from "./firmware-profile.schema.js";
import { indexProfiles, parseProfileText } from "./validate-profile.js";

export async function loadProfiles(dir: string): Promise<Map<string, FirmwareProfile>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .map((e) => join(dir, e.name))
    .sort();
  const parsed = [];
  for (const file of files) {
    parsed.push({ file, profile: parseProfileText(file, await readFile(file, "utf8")) });
  }
  return indexProfiles(parsed);
}
