import { defineConfig } from "vitest/config";
import { deadline } from "./test/support/deadline.js";

/**
 * The tests on one axis, one project each (`npm run test:unit`, `test:agent`, `test:spec`, `test:system`;
 * `vitest run` runs them all):
 * - unit: pure and in process, laid out as src/ is (examples/ too): no port, no child process, no agent;
 * - agent: an agent or its services in process over a real SQLite file, no listener (by feature);
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
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "examples/**/*.test.ts"] },
      },
      { extends: true, test: { name: "agent", include: ["test/agent/**/*.test.ts"] } },
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
