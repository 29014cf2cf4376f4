import { configDefaults, defineConfig } from "vitest/config";
import { deadline } from "./test/support/deadline.js";

/**
 * The tests on one axis, one project each (`npm run test:unit`, `test:agent`, `test:spec`, `test:system`;
 * `vitest run` runs them all):
 * - unit: pure and in process, laid out as src/ is (examples/ too): no port, no child process, no agent,
 *   no file written, no wait on the clock (reading the checkout's own files is allowed);
 * - agent: an agent or its services in process over a real SQLite file, no listener (by feature); also
 *   what reads and writes files of its own or waits on real time (examples' *.sqlite.test.ts too);
 * - spec: the conformance suite;
 * - system: real processes, listeners, brokers, pseudo-terminals, browsers, the Debian package (by feature).
 *
 * Vitest's own default on a 2-core machine is one file at a time (cores - 1). The in-process projects run
 * first, two files at a time (one per core); the system project after them, three at a time: its files
 * mostly wait on child processes, brokers and timers, so three overlap their waits (four starve each
 * other and take longer). The whole run went from 8 min 13 s, one file at a time, to 3 min 20 s.
 *
 * The test and hook timeouts are deadlines like every other wait of the tests: stretched by
 * PPS_EDGE_TEST_SLOWDOWN (docs/testing.md#deadlines).
 */
export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    setupFiles: ["test/support/temp-dirs.setup.ts"],
    maxWorkers: 2,
    testTimeout: deadline(20_000),
    hookTimeout: deadline(30_000),
    // expect.poll's own default is 1 s, an idle machine's figure
    expect: { poll: { timeout: deadline(2000) } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "examples/**/*.sqlite.test.ts"],
          // Pure tests share one module graph per worker: src/ is imported once per worker, not once
          // per file (the run's CPU time fell from about 17 s to 5 s). None of them changes the
          // process (umask, cwd, environment) or leaves fake timers behind; a worker thread refuses
          // the first two outright, which keeps the project honest.
          isolate: false,
          pool: "threads",
          // Transformed modules kept on disk between runs, so a rerun transforms only what changed
          // (about 1 s of CPU less again). Keyed by each file's content and the config's, so an edit is never
          // served stale; `npx vitest --clearCache` empties it.
          experimental: { fsModuleCache: true, fsModuleCachePath: ".vitest-cache" },
        },
      },
      {
        extends: true,
        test: { name: "agent", include: ["test/agent/**/*.test.ts", "examples/**/*.sqlite.test.ts"] },
      },
      { extends: true, test: { name: "spec", include: ["test/spec/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/system/**/*.test.ts"],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
