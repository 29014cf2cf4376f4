import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
// @ts-expect-error: plain ESM module without types
import { staleReason } from "../../../../scripts/build-if-stale.mjs";
import { buildAgent } from "../../../support/build.js";

export const ROOT = resolve(import.meta.dirname, "../../../..");
const run = promisify(execFile);

/** Why the package tests cannot run here (no dpkg-deb or dpkg), or null. */
export function missingDpkg(): string | null {
  for (const tool of ["dpkg-deb", "dpkg"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  return null;
}

/** dpkg-deb's output for these arguments. */
export function dpkgDeb(...args: string[]): string {
  return execFileSync("dpkg-deb", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

export interface Debs {
  /** The package at package.json's version, and a newer build of it (the version bumped). */
  older: { deb: string; version: string };
  newer: { deb: string; version: string };
  /** A newer build whose agent fails at start (`pps-edge run` throws): the upgrade guard's case. */
  faulty: { deb: string; version: string };
  dir: string;
  remove(): void;
}

/**
 * Builds the package twice as `npm run package` does (scripts/package.mjs), uncompressed to save time:
 * from the checkout's dist/ when it is current (CI has just built it for the package), else from a
 * build of its own.
 */
export async function buildDebs(version: string): Promise<Debs> {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-debs-"));
  const own = (staleReason as (root: string) => string | null)(ROOT) === null ? null : await buildAgent();
  const dist = own?.dist ?? join(ROOT, "dist");
  const build = async (v: string, from = dist) => {
    const args = ["--version", v, "--out", dir, "--dist", from, "--compress", "none"];
    await run(process.execPath, [join(ROOT, "scripts", "package.mjs"), ...args], { cwd: ROOT });
    const deb = join(dir, `pps-edge_${v}_${dpkgArch()}.deb`);
    if (!existsSync(deb)) throw new Error(`the package script wrote no ${deb}`);
    return { deb, version: v };
  };
  try {
    const older = await build(version);
    const newer = await build(`${version}+next`);
    // the fault injected into a copy of the build: the agent's module throws when `run` loads it, so the
    // service never becomes ready, while the other commands (status, backup, restore) work
    const broken = join(dir, "dist-faulty");
    cpSync(dist, broken, { recursive: true });
    const agent = join(broken, "app", "agent.js");
    writeFileSync(agent, `throw new Error("fault injected at start");\n${readFileSync(agent, "utf8")}`);
    const faulty = await build(`${version}+faulty`, broken);
    rmSync(broken, { recursive: true, force: true });
    return { older, newer, faulty, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } finally {
    own?.remove();
  }
}

export function dpkgArch(): string {
  return execFileSync("dpkg", ["--print-architecture"], { encoding: "utf8" }).trim();
}

/**
 * A scratch root with an empty dpkg database: `dpkg --root` installs into it without root's rights,
 * its maintainer scripts run outside a chroot with DPKG_ROOT set (they then leave the running system
 * alone), and the dependencies (nodejs, libc…) are not looked for in it.
 */
export function scratchRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "pps-edge-root-"));
  for (const d of ["info", "updates", "triggers"])
    execFileSync("mkdir", ["-p", join(root, "var/lib/dpkg", d)]);
  for (const f of ["status", "available"]) execFileSync("touch", [join(root, "var/lib/dpkg", f)]);
  return root;
}

async function dpkg(root: string, ...action: string[]): Promise<string> {
  const args = ["--root", root, "--log=/dev/null", "--force-not-root", "--force-script-chrootless"];
  const path = `${process.env.PATH ?? ""}:/usr/sbin:/sbin`;
  const r = await run("dpkg", [...args, ...action], { env: { ...process.env, PATH: path } });
  return r.stdout + r.stderr;
}

/** `dpkg -i` into the scratch root, as apt would on a station (an edited conffile is kept). */
export function dpkgInstall(root: string, deb: string): Promise<string> {
  return dpkg(root, "--force-depends", "--force-confold", "--force-downgrade", "-i", deb);
}

/** `dpkg --purge pps-edge` in the scratch root (what `apt purge pps-edge` runs). */
export function dpkgPurge(root: string): Promise<string> {
  return dpkg(root, "--purge", "pps-edge");
}

export function installedVersion(root: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a template
  const args = ["--root", root, "-W", "-f=${Version}", "pps-edge"];
  return execFileSync("dpkg-query", args, { encoding: "utf8" });
}
