/**
 * `npm start` builds only when the build is stale (scripts/build-if-stale.mjs): a source, folder,
 * tsconfig or package.json newer than the last good build's stamp, or no build at all.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/temp-dirs.js";

type StaleReason = (root: string, out: string) => string | null;
const script = new URL("../../../scripts/build-if-stale.mjs", import.meta.url).href;

/** A checkout in miniature, every file at `at` (seconds since the epoch). */
function checkout(at: number) {
  const root = tempDir("pps-edge-stale-");
  const files = [
    "src/app/main.ts",
    "src/app/cli/run.command.ts",
    "tsconfig.json",
    "tsconfig.build.json",
    "package.json",
  ];
  mkdirSync(join(root, "src", "app", "cli"), { recursive: true });
  for (const f of files) writeFileSync(join(root, f), "");
  for (const p of [...files, "src/app/cli", "src/app", "src"]) utimesSync(join(root, p), at, at);
  return root;
}

function built(root: string, at: number) {
  mkdirSync(join(root, "dist", "app"), { recursive: true });
  for (const f of ["app/main.js", ".build-stamp"]) {
    writeFileSync(join(root, "dist", f), "");
    utimesSync(join(root, "dist", f), at, at);
  }
}

describe("build-if-stale", () => {
  it("builds without a build, not after one, and again once an input is newer than its stamp", async () => {
    const { staleReason } = (await import(script)) as { staleReason: StaleReason };
    const root = checkout(1000);
    const dist = join(root, "dist");
    expect(staleReason(root, dist)).toBe("no complete build in dist/");
    built(root, 2000);
    expect(staleReason(root, dist)).toBeNull();

    utimesSync(join(root, "src/app/cli/run.command.ts"), 3000, 3000);
    expect(staleReason(root, dist)).toBe("/src/app/cli/run.command.ts changed since the last build");
    built(root, 4000);
    expect(staleReason(root, dist)).toBeNull();

    // a file removed: only its folder's time tells
    rmSync(join(root, "src/app/main.ts"));
    utimesSync(join(root, "src/app"), 5000, 5000);
    expect(staleReason(root, dist)).toBe("/src/app changed since the last build");
    built(root, 6000);
    utimesSync(join(root, "tsconfig.build.json"), 7000, 7000);
    expect(staleReason(root, dist)).toBe("/tsconfig.build.json changed since the last build");
    built(root, 8000);
    utimesSync(join(root, "package.json"), 9000, 9000);
    expect(staleReason(root, dist)).toBe("/package.json changed since the last build");
  });
});
