// Mounts the power-cut file system (powercut_fs.py beside this file) for a test or a benchmark: a backing
// folder (the disk) and a mount point in a fresh temp folder. Shared by test/system/power-cut/ and
// bench/power-cut.bench.mjs, hence plain JavaScript (typed by mount.d.mts).
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("powercut_fs.py", import.meta.url));
/** Debian's interpreter, which has python3-fusepy (another python3 may come first on PATH). */
export const PYTHON = "/usr/bin/python3";

/** Why the file system cannot be mounted here (no /dev/fuse, no python3-fusepy, not root), or null. */
export function powerCutUnavailable() {
  if (!existsSync("/dev/fuse")) return "no /dev/fuse";
  if (typeof process.getuid === "function" && process.getuid() !== 0) return "not root";
  const probe = spawnSync(PYTHON, ["-c", "import fusepy"], { encoding: "utf8" });
  if (probe.status !== 0) return `${PYTHON} cannot import fusepy (Debian package python3-fusepy)`;
  return null;
}

const mounted = (dir) => readFileSync("/proc/self/mountinfo", "utf8").includes(` ${dir} `);

/** fsync of a folder (a directory fd): makes its names durable. */
export function fsyncDir(dir) {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Mounts a new power-cut file system; `dir` is the mount point. `cut()` drops everything not made
 * durable (the processes using it must be dead first); `counts()` reads its counters; `unmount()` ends it
 * and removes the temp folder.
 */
export async function mountPowerCut(prefix = "pps-edge-powercut-") {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const backing = join(root, "disk");
  const dir = join(root, "mnt");
  mkdirSync(backing);
  mkdirSync(dir);
  const proc = spawn(PYTHON, [SCRIPT, backing, dir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  for (let waited = 0; !mounted(dir); waited += 20) {
    if (proc.exitCode !== null || waited > 10_000) {
      proc.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
      throw new Error(`power-cut file system did not mount: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    dir,
    backing,
    cut() {
      writeFileSync(join(dir, ".powercut"), "cut");
    },
    counts() {
      return JSON.parse(readFileSync(join(dir, ".powercut"), "utf8"));
    },
    stderr: () => stderr,
    async unmount() {
      if (mounted(dir)) spawnSync("fusermount", ["-u", "-z", dir]);
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
