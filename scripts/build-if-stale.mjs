#!/usr/bin/env node
// `npm start`'s prestart: builds only when something the build reads is newer than the last good
// build's stamp (build.mjs), so a start with a current build is not held up by the compiler (about
// 11 s here; `tsc --incremental` with nothing to do still takes 2.7 s, `tsc -b` 0.36 s, this check
// 0.17 s, most of it Node's own start). Inputs: every file and folder under src/ (a folder's time
// changes when a file in it is added or removed), tsconfig*.json and package.json. `npm run build`
// always builds.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, ROOT, STAMP } from "./build.mjs";

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest input and its time: files and folders under src/, the tsconfigs and package.json. */
function newestInput(root) {
  let newest = { path: "", ms: 0 };
  const see = (path) => {
    const ms = mtime(path);
    if (ms > newest.ms) newest = { path, ms };
  };
  const walk = (dir) => {
    see(dir);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else see(join(dir, e.name));
    }
  };
  walk(join(root, "src"));
  for (const f of readdirSync(root)) if (/^tsconfig.*\.json$/.test(f)) see(join(root, f));
  see(join(root, "package.json"));
  return newest;
}

/** Why a build is needed (the input newer than the stamp, or no build), or null when it is current. */
export function staleReason(root = ROOT, out = join(root, "dist")) {
  const stamp = mtime(join(out, STAMP));
  if (stamp === 0 || mtime(join(out, "app", "main.js")) === 0) return "no complete build in dist/";
  const newest = newestInput(root);
  return newest.ms > stamp ? `${newest.path.slice(root.length)} changed since the last build` : null;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reason = staleReason();
  if (reason !== null) {
    process.stderr.write(`building: ${reason}\n`);
    process.exitCode = build();
  }
}
