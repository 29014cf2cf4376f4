/**
 * Temp folders for tests: each one made here is removed after its test file
 * (temp-dirs.setup.ts, vitest.config.ts `setupFiles`). Loads nothing but node:fs, so every file's setup
 * stays cheap.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Every folder `tempDir` made in this test file: removed after it (test/support/temp-dirs.setup.ts). */
const madeDirs = new Set<string>();

export function tempDir(prefix = "pps-edge-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/** Removes the folders `tempDir` made; one still in use by a process that outlived its test is left. */
export function removeTempDirs(): void {
  for (const dir of madeDirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // written to meanwhile by a child that is still exiting: /tmp is emptied at boot anyway
    }
    madeDirs.delete(dir);
  }
}
