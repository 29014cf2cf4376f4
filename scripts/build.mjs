#!/usr/bin/env node
// `npm run build`: compiles src/ into dist/ (tsc -p tsconfig.build.json; further arguments such as
// `--outDir X` go to tsc), makes dist/app/main.js executable (the package's `bin`, so `npx pps-edge` and
// an installed `pps-edge` run it through its shebang), and on success writes the build stamp that
// `npm start` compares the sources against (build-if-stale.mjs). A build with type errors still
// emits (as tsc does) but fails, and writes no stamp: the next `npm start` builds again.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const STAMP = ".build-stamp";

/** The output folder tsc writes to for these arguments. */
export function outDirOf(args) {
  const i = args.indexOf("--outDir");
  return resolve(ROOT, i >= 0 && args[i + 1] ? args[i + 1] : "dist");
}

/** Builds; returns tsc's exit status. */
export function build(args = []) {
  const started = new Date();
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json"), ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const out = outDirOf(args);
  const main = join(out, "app", "main.js");
  if (existsSync(main)) chmodSync(main, 0o755);
  const status = run.status ?? 1;
  if (status === 0) {
    // the stamp carries the time the build started: a file saved during the build is newer than it
    const stamp = join(out, STAMP);
    writeFileSync(stamp, `${started.toISOString()}\n`);
    utimesSync(stamp, started, started);
  }
  return status;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = build(process.argv.slice(2));
}
