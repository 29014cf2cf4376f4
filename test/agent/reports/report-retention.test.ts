/**
 * Inventory reports are pruned (docs/operations.md#report-retention): finished reports beyond the newest
 * `reports.keep`, or older than `reports.maxAgeDays`, go with their CSV files; a report still being
 * generated is never touched, and a pruned one answers 404.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const PREFIX = "/api-gateway/platform-dashboard/report";
let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent({ reports: { keep: 3, maxAgeDays: 2 } });
});
afterAll(async () => t.close());

async function generate(): Promise<number> {
  const res = await t.call("POST", `${PREFIX}/generate-inventory-report`, {});
  expect(res.status).toBe(200);
  const { id } = (await res.json()) as { id: number };
  await t.agent.services.reports.idle();
  return id;
}
const files = () => readdirSync(join(t.dir, "reports")).filter((n) => n.endsWith(".csv")).length;

describe("report retention", () => {
  it("keeps the newest reports.keep, then removes those older than reports.maxAgeDays, files and all", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await generate());
      t.clock.now += 60_000;
    }
    expect(files()).toBe(5);
    expect(await t.agent.services.reports.prune()).toBe(2);
    expect(files()).toBe(3);
    expect((await t.call("GET", `${PREFIX}/download/${ids[0]}`)).status).toBe(404);
    expect((await t.call("GET", `${PREFIX}/download/${ids[4]}`)).status).toBe(200);

    // a report asked for now, still requested, is never pruned; the old ones go by age
    t.clock.now += 3 * 86_400_000;
    t.agent.services.repos.reports.insert("INVENTORY", t.clock.now);
    expect(await t.agent.services.reports.prune()).toBe(3);
    expect(files()).toBe(0);
    const left = t.agent.db.sqlite.prepare("SELECT status FROM reports").all() as Array<{ status: string }>;
    expect(left).toEqual([{ status: "requested" }]);
    expect(existsSync(join(t.dir, "reports"))).toBe(true);
  });
});
