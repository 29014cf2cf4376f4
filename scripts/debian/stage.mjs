// The file tree of the Debian package (docs/operations.md#install-on-a-station; the layout: the release in
// /opt/pps-edge/releases/<version> with dist/, production node_modules/, drizzle/, firmware-profiles/,
// docs/, and the link /opt/pps-edge/current to it (docs/operations.md#self-healing-upgrade); /usr/bin/pps-edge; the unit;
// /etc/pps-edge/pps-edge.yaml; udev, sysusers and tmpfiles entries). scripts/package.mjs wraps it.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { pruneToRuntime } from "./runtime-tree.mjs";

export const OPT = "opt/pps-edge";
/** Where a release's files are, below the package's root. */
export const releaseDir = (version) => `${OPT}/releases/${version}`;

/** Every file under a folder, as paths relative to it. */
export function filesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

function put(stage, path, text, mode = 0o644) {
  const dest = join(stage, path);
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, text);
  chmodSync(dest, mode);
}

/**
 * The production node_modules: the installed tree copied, dev dependencies pruned offline (no download;
 * the native modules stay as built for this machine's Node, so a station never compiles), then cut down
 * to what the agent runs (runtime-tree.mjs).
 */
function stageNodeModules(root, opt) {
  cpSync(realpathSync(join(root, "node_modules")), join(opt, "node_modules"), {
    recursive: true,
    verbatimSymlinks: true,
  });
  for (const f of ["package.json", "package-lock.json"]) cpSync(join(root, f), join(opt, f));
  execFileSync("npm", ["prune", "--omit=dev", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: opt,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  rmSync(join(opt, "package-lock.json"));
  return pruneToRuntime(opt);
}

/** Each native module of the package loads in this Node (a wrong ABI or a missing binding fails here). */
export function checkNativeModules(opt, node = process.execPath) {
  const native = filesUnder(join(opt, "node_modules")).filter((f) => f.endsWith(".node"));
  for (const want of ["better-sqlite3/", "@serialport/bindings-cpp/", "node-hid/"]) {
    if (!native.some((f) => f.startsWith(want)))
      throw new Error(`no native binding of ${want} in the package`);
  }
  // and every dependency of the agent loads from the pruned tree (nothing it needs was cut away)
  const deps = Object.keys(JSON.parse(readFileSync(join(opt, "package.json"), "utf8")).dependencies);
  const script = `for (const f of ${JSON.stringify(native)}) require("./node_modules/" + f);
    new (require("better-sqlite3"))(":memory:").prepare("select 1").get();
    Promise.all(${JSON.stringify(deps)}.map((d) => import(d))).catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(node, ["-e", script], { cwd: opt, stdio: "inherit" });
  return native;
}

/** Copies what the package holds into `stage` (a fresh folder); `dist` is the compiled agent. */
export async function stageTree(root, stage, dist, version) {
  const opt = join(stage, releaseDir(version));
  mkdirSync(opt, { recursive: true });
  cpSync(dist, join(opt, "dist"), { recursive: true, filter: (src) => !src.endsWith(".map") });
  for (const d of ["drizzle", "firmware-profiles", "docs"])
    cpSync(join(root, d), join(opt, d), { recursive: true });
  cpSync(join(root, "README.md"), join(opt, "README.md"));
  // the static files the HTTP routes serve from src/ (the operator screen, the API docs page)
  for (const f of filesUnder(join(root, "src")).filter((f) => !f.endsWith(".ts"))) {
    mkdirSync(dirname(join(opt, "src", f)), { recursive: true });
    cpSync(join(root, "src", f), join(opt, "src", f));
  }
  const packageDirs = stageNodeModules(root, opt);
  // the files of packaging/: the default config (generated from the config schema by
  // `npm run docs:generate`), the udev rules, the system user and the data folder
  const packaging = (f) => readFileSync(join(root, "packaging", f));
  symlinkSync(`releases/${version}`, join(stage, OPT, "current"));
  put(stage, "etc/pps-edge/pps-edge.yaml", packaging("pps-edge.yaml"));
  put(stage, "usr/bin/pps-edge", readFileSync(join(root, "systemd", "pps-edge.launcher.sh")), 0o755);
  put(stage, "lib/systemd/system/pps-edge.service", readFileSync(join(root, "systemd", "pps-edge.service")));
  put(stage, "usr/lib/udev/rules.d/99-pps-edge.rules", packaging("99-pps-edge.rules"));
  put(stage, "usr/lib/sysusers.d/pps-edge.conf", packaging("pps-edge.sysusers"));
  put(stage, "usr/lib/tmpfiles.d/pps-edge.conf", packaging("pps-edge.tmpfiles"));
  return { opt, packageDirs, native: checkNativeModules(opt) };
}
