import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";

/**
 * The layer rules (.dependency-cruiser.cjs, run by `npm run lint:layers`) must be able to fail: they run
 * here on a small tree under test/fixtures/layers/src that breaks them on purpose.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../../fixtures/layers", import.meta.url));

interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** Runs the rules on the fixture as `npm run lint:layers` does, with the given reporter. */
function cruiseFixture(outputType: "err" | "json") {
  const run = spawnSync(
    process.execPath,
    [
      `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`,
      "src",
      "--config",
      `${ROOT}.dependency-cruiser.cjs`,
      "--output-type",
      outputType,
    ],
    { cwd: FIXTURE, encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  return run;
}

describe("layer rules", () => {
  it(
    "report a domain file importing db/ (type-only), a two-file cycle, mqtt outside sync/ and files taken from behind a services door",
    () => {
      // The text reporter (the script's) exits non-zero on errors, so `npm test` stops.
      expect(cruiseFixture("err").status).not.toBe(0);
      const { violations } = (
        JSON.parse(cruiseFixture("json").stdout) as { summary: { violations: Violation[] } }
      ).summary;
      const found = violations.map((v) => [v.rule.name, v.from, v.to]).sort();
      // Exactly these: the orders door importing db/ and its own folder's file, the imports of that door and
      // of the unit of work's (a folder entered through the file named as it) are allowed and not reported.
      expect(found).toEqual([
        ["layer-domain", "src/domain/order.ts", "src/db/orders.repo.ts"],
        ["mqtt-packages", "src/http/broker.ts", expect.stringMatching(/node_modules\/mqtt\//)],
        [
          "no-circular",
          expect.stringMatching(/^src\/sync\/p[io]ng\.ts$/),
          expect.stringMatching(/^src\/sync\//),
        ],
        ["services-door", "src/http/orders.routes.ts", "src/services/orders/order-total.ts"],
        ["services-door", "src/services/invoices/invoices.service.ts", "src/services/orders/order-total.ts"],
      ]);
      expect(violations.every((v) => v.rule.severity === "error")).toBe(true);
    },
    deadline(60_000),
  );
});
