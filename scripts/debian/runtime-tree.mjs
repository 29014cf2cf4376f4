// What of the production node_modules the package keeps: only what the agent runs
// (docs/operations.md#what-the-package-holds). The packages the agent's dependencies reach at run time,
// and of each only its code, data and licence files; no tests, docs, examples, type declarations, source
// maps, command-line programs, files of other tools (npm, ESLint, git, editors, CI), C/C++ sources and build files of the native
// modules, prebuilt binaries of other platforms (musl, win32, darwin, other architectures), and no
// node_modules/.bin links. The native modules are stripped and not executable (Debian policy 10.2).
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/**
 * Packages a production install brings that nothing runs: prebuild-install downloads better-sqlite3's
 * binary at `npm install` time, node-addon-api is C++ headers for compiling, @scarf/scarf is
 * swagger-ui-dist's install-time telemetry. What only they depend on goes with them.
 */
export const INSTALL_TIME_ONLY = new Set(["prebuild-install", "node-addon-api", "@scarf/scarf"]);

/** Folders of a package's root that hold no code it runs. */
const NOT_RUN_DIRS = new Set([
  ".github",
  ".husky",
  "test",
  "tests",
  "__tests__",
  "example",
  "examples",
  "benchmark",
  "benchmarks",
  "bench",
  "docs",
  "doc",
  "man",
  "fonts",
  "typings",
]);
/** Folders of a native module's root that are its sources and build inputs (its binary is elsewhere). */
const NATIVE_SOURCE_DIRS = new Set(["src", "deps", "hidapi", "build-tmp-napi-v3", "include"]);

/** Files no runtime reads: other tools' configs, sources, build files, docs, web pages, fonts. */
const NOT_RUN_FILE =
  /(^\.(npmignore|npmrc|eslintrc.*|eslintignore|gitattributes|gitignore|gitmodules|editorconfig|prettierrc.*|prettierignore|travis\.yml|nycrc.*|taprc|airtap\.yml|jshintrc|jscsrc|zuul\.yml|babelrc|dockerignore|package-lock\.json)$)|(^(appveyor\.yml|Makefile|binding\.gyp|tsconfig.*\.json|CHANGELOG.*|HISTORY.*|CONTRIBUTING.*|SECURITY.*|CODE_OF_CONDUCT.*)$)|\.(map|ts|mts|cts|md|markdown|html|htm|c|cc|cpp|cxx|h|hh|hpp|gyp|gypi|o|a|mk|sln|vcproj|vcxproj|filters|py|sh|bat|cmd|ps1|otf|ttf|woff|woff2|eot|ps|in)$/i;
/** What every package keeps whatever its name: its licence texts (the copyright file quotes them). */
const LICENCE_FILE = /^(LICEN[CS]E|COPYING|NOTICE)([.-].*)?$/i;

/** A package's folder for a dependency name, looked up as Node does: its own node_modules, then upwards. */
function resolvePackage(fromDir, name, top) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === top || dirname(dir) === dir) return null;
  }
}

/** The package folders the agent's dependencies reach (dependencies, optional and required peers). */
export function runtimePackages(appDir) {
  const app = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8"));
  const reached = new Set();
  const queue = [[appDir, Object.keys(app.dependencies ?? {})]];
  while (queue.length > 0) {
    const [from, names] = queue.shift();
    for (const name of names) {
      if (INSTALL_TIME_ONLY.has(name)) continue;
      const dir = resolvePackage(from, name, appDir);
      if (!dir || reached.has(dir)) continue;
      reached.add(dir);
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const optionalPeer = pkg.peerDependenciesMeta ?? {};
      const peers = Object.keys(pkg.peerDependencies ?? {}).filter((p) => !optionalPeer[p]?.optional);
      queue.push([
        dir,
        [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...peers],
      ]);
    }
  }
  return [...reached].sort();
}

/** Every package folder under node_modules (scoped and nested ones too). */
function allPackages(nodeModules) {
  const out = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name === ".bin") continue;
      const path = join(dir, e.name);
      if (e.name.startsWith("@")) walk(path);
      else if (existsSync(join(path, "package.json"))) {
        out.push(path);
        walk(join(path, "node_modules"));
      }
    }
  };
  walk(nodeModules);
  return out;
}

/** Removes a package's files that are not run; `platform` is e.g. linux-x64. */
function prunePackage(dir, platform) {
  const native = existsSync(join(dir, "binding.gyp"));
  // the package's command-line programs (its `bin`): the agent runs none of them
  const { bin } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  for (const file of typeof bin === "string" ? [bin] : Object.values(bin ?? {})) {
    rmSync(join(dir, file), { force: true });
  }
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && (NOT_RUN_DIRS.has(e.name) || (native && NATIVE_SOURCE_DIRS.has(e.name)))) {
      rmSync(join(dir, e.name), { recursive: true, force: true });
    }
  }
  // prebuilt binaries: only this platform's, and only for glibc (Debian's C library)
  const prebuilds = join(dir, "prebuilds");
  if (existsSync(prebuilds)) {
    for (const e of readdirSync(prebuilds)) {
      if (e !== platform && !e.endsWith(`-${platform}`)) rmSync(join(prebuilds, e), { recursive: true });
    }
  }
  const build = join(dir, "build");
  if (native && existsSync(build)) {
    for (const e of readdirSync(build)) if (e !== "Release") rmSync(join(build, e), { recursive: true });
    const release = join(build, "Release");
    if (existsSync(release)) {
      for (const e of readdirSync(release)) {
        // the module itself; not its objects, nor the test binaries a source build leaves (test_extension)
        if (!e.endsWith(".node") || e.startsWith("test"))
          rmSync(join(release, e), { recursive: true, force: true });
      }
    }
  }
}

/** Every file (and link) below a folder, skipping nested package folders (they are pruned on their own). */
function filesOf(dir, skipNested = true) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!(skipNested && e.name === "node_modules")) out.push(...filesOf(path, skipNested));
    } else out.push(path);
  }
  return out;
}

/** Removes empty folders below (and not including) `dir`. */
function removeEmptyDirs(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const path = join(dir, e.name);
    removeEmptyDirs(path);
    if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
  }
}

/**
 * Keeps in `appDir/node_modules` only what the agent runs (see the top of this file); strips the native
 * modules and makes every file 0644 and every folder 0755. Returns the package folders kept.
 */
export function pruneToRuntime(appDir, platform = `linux-${process.arch}`) {
  const nodeModules = join(appDir, "node_modules");
  const keep = new Set(runtimePackages(appDir));
  rmSync(join(nodeModules, ".bin"), { recursive: true, force: true });
  rmSync(join(nodeModules, ".package-lock.json"), { force: true });
  // nested packages first, so a kept package inside a dropped one is never left behind
  for (const dir of allPackages(nodeModules).reverse()) {
    if (!keep.has(dir)) rmSync(dir, { recursive: true, force: true });
  }
  for (const dir of keep) {
    prunePackage(dir, platform);
    for (const f of filesOf(dir)) {
      const name = f.split(sep).pop();
      if (lstatSync(f).isSymbolicLink()) rmSync(f);
      else if (LICENCE_FILE.test(name)) chmodSync(f, 0o644);
      else if (NOT_RUN_FILE.test(name) || /musl/.test(relative(dir, f))) rmSync(f);
      else chmodSync(f, 0o644);
    }
  }
  removeEmptyDirs(nodeModules);
  for (const f of filesOf(nodeModules, false).filter((f) => f.endsWith(".node"))) {
    execFileSync("strip", ["--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", f]);
    chmodSync(f, 0o644);
  }
  const dirs = (d) => {
    chmodSync(d, 0o755);
    for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) dirs(join(d, e.name));
  };
  dirs(nodeModules);
  return [...keep];
}
