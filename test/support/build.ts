import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Compiles src/ into a temp folder laid out like the package (dist/ beside drizzle/, firmware-profiles/
 * and node_modules/, all linked), so a test can run the agent as its own process and kill it, without touching the
 * working tree's dist/. It builds as `npm run build` does (scripts/build.mjs: dist/app/main.js executable).
 */
export async function buildAgent(): Promise<{ dist: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-build-"));
  symlinkSync(join(ROOT, "drizzle"), join(dir, "drizzle"));
  symlinkSync(join(ROOT, "firmware-profiles"), join(dir, "firmware-profiles"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const dist = join(dir, "dist");
  // Type errors elsewhere in the tree do not stop the emit; a missing output does.
  await promisify(execFile)(
    process.execPath,
    [join(ROOT, "scripts", "build.mjs"), "--outDir", dist, "--sourceMap", "false"],
    { cwd: ROOT },
  ).catch((e: { stdout?: string }) => e);
  const agent = join(dist, "app", "agent.js");
  if (!existsSync(agent)) throw new Error(`the build wrote no ${agent}`);
  return { dist, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
