// Issue 36 (part 4): the wall time of `npm run test:unit` on a busy 2-core machine. BENCH_UNIT_HOGS
// processes (default 2, one per core of the machine the target is set for) spin beside it, started and
// killed by this bench. The first run starts with no transform cache (.vitest-cache: after a clone or
// a change of the config), the BENCH_UNIT_RUNS (default 3) after it reuse the cache as a rerun does;
// their median is the figure. BENCH_UNIT_HOGS=0 measures the machine without them. The tests run in
// the checkout of `--agent-dir` when given, so an older commit is measured the same way. They need no
// build: `node bench/run.mjs unit-speed` skips the one `npm run bench` makes first.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { agentDir } from "./lib.mjs";

const HOGS = Number(process.env.BENCH_UNIT_HOGS ?? 2);
const RUNS = Number(process.env.BENCH_UNIT_RUNS ?? 3);
/** Where the unit project keeps its transformed modules (vitest.config.ts). */
const CACHE = ".vitest-cache";

/** Processes that keep one core each busy until killed. */
function startHogs(n) {
  return Array.from({ length: n }, () => spawn(process.execPath, ["-e", "for(;;);"], { stdio: "ignore" }));
}

function killHogs(hogs) {
  for (const hog of hogs)
    if (hog.exitCode === null && hog.signalCode === null) process.kill(hog.pid, "SIGKILL");
}

/** One `npm run test:unit` in `dir`: its wall time and vitest's own summary. */
function unitRun(dir) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("npm", ["run", "test:unit"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const wallMs = Math.round(performance.now() - t0);
      const text = stripVTControlCharacters(out);
      if (code !== 0) {
        reject(new Error(`npm run test:unit exited with ${code}:\n${text.slice(-3000)}`));
        return;
      }
      const count = (what) => Number(new RegExp(`${what}\\s+(\\d+) passed`).exec(text)?.[1] ?? Number.NaN);
      resolve({
        wallMs,
        files: count("Test Files"),
        tests: count("Tests"),
        // vitest's split of the time: transform, import, tests (summed over its workers)
        duration: /Duration\s+(.*)/.exec(text)?.[1]?.trim() ?? null,
      });
    });
  });
}

export async function run() {
  const dir = agentDir();
  const hogs = startHogs(HOGS);
  const onExit = () => killHogs(hogs);
  process.once("exit", onExit);
  try {
    rmSync(join(dir, CACHE), { recursive: true, force: true });
    const cold = await unitRun(dir);
    const warm = [];
    for (let i = 0; i < RUNS; i++) warm.push(await unitRun(dir));
    const sorted = warm.map((r) => r.wallMs).sort((a, b) => a - b);
    return {
      config: { hogs: HOGS, runs: RUNS },
      result: {
        command: "npm run test:unit",
        files: cold.files,
        tests: cold.tests,
        emptyCacheWallMs: cold.wallMs,
        wallMs: sorted[Math.floor((sorted.length - 1) / 2)],
        runs: [{ cache: "empty", ...cold }, ...warm.map((r) => ({ cache: "kept", ...r }))],
      },
    };
  } finally {
    killHogs(hogs);
    process.off("exit", onExit);
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "npm run test:unit wall ms, median": { value: r.result.wallMs, better: "lower" },
    "npm run test:unit wall ms, empty cache": { value: r.result.emptyCacheWallMs, better: "lower" },
  };
}
