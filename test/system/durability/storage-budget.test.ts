/**
 * The storage budget (docs/operations.md#storage-budget) filled by an integration client over a real
 * HTTP server and a real SQLite file: past `storage.maxDatabaseBytes` every change is refused with
 * `503 storage_budget` naming the limit, before it begins (nothing of it stored), while reads and logins
 * go on; `/readyz`, `/metrics` and the operator screen say so, and deleting data makes room at once. The outbox's byte limit
 * refuses a change whose notifications would wait beyond `outbox.maxUndeliveredBytes`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { passwordGrant, SCRAPE, startTestAgent, type TestAgent, TOKEN_PATH } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM } from "../../support/station.js";

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";
/** 100 KB of image per item: the database grows by about that much with each. */
const image = (i: number) => `${i}`.padEnd(100_000, "x");

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("the storage budget", () => {
  it("refuses changes past storage.maxDatabaseBytes with 503 storage_budget, keeps serving reads", async () => {
    t = await startTestAgent(
      { storage: { maxDatabaseBytes: 2_000_000, minFreeDiskBytes: 0 } },
      { listen: true },
    );
    const base = `http://127.0.0.1:${t.agent.address?.port}`;
    const token = await t.token();
    const post = (sku: string, i: number) =>
      fetch(`${base}${ITEM}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(itemBody(sku, { imageData: image(i) })),
      });
    const { sqlite } = t.agent.db;
    const items = () => (sqlite.prepare("SELECT count(*) AS n FROM items").get() as { n: number }).n;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    let acknowledged = 0;
    let refused: Response | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await post(`S-${i}`, i);
      if (res.status === 200) acknowledged++;
      else refused = res;
    }
    expect(acknowledged).toBeGreaterThan(5);
    expect(refused?.status).toBe(503);
    expect(await refused?.json()).toMatchObject({
      code: "storage_budget",
      errors: [{ path: "storage.maxDatabaseBytes" }],
    });
    // nothing of a refused change is stored, and the next is refused alike
    expect(items()).toBe(acknowledged);
    expect((await post("S-again", 0)).status).toBe(503);
    expect(items()).toBe(acknowledged);

    // the work at the station goes on in the reserve (storage.stationReserveBytes): an operator logs in
    const seatLogin = await fetch(`${base}/station/seats/front/login`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ user: "alice" }),
    });
    expect(seatLogin.status).toBe(200);

    // reads and logins go on
    expect((await fetch(`${base}${CATALOG}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    const login = await fetch(`${base}${TOKEN_PATH}`, passwordGrant());
    expect(login.status).toBe(200);

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    const checks = ((await ready.json()) as { checks: Record<string, { ok: boolean; detail?: string }> })
      .checks;
    expect(checks.storage_budget).toMatchObject({ ok: false });
    expect(checks.storage_budget?.detail).toContain("storage.maxDatabaseBytes");
    const metrics = await (await fetch(`${base}/metrics`, SCRAPE)).text();
    expect(metrics).toMatch(/db_storage_budget_ok 0/);
    expect(metrics).toMatch(/db_storage_budget_refusals_total\{limit="storage.maxDatabaseBytes"\} 2/);
    expect(metrics).toMatch(/db_database_budget_bytes 2000000/);

    // the operator screen says so, before anyone's scan is refused
    const agent = t;
    const notices = async () => {
      const state = (await (await agent.call("GET", "/station/seats/front/screen")).json()) as {
        notices: Array<{ kind: string }>;
      };
      return state.notices.map((n) => n.kind);
    };
    expect(await notices()).toContain("storage_budget");

    // deleting makes room at once: freed pages count no more
    sqlite.exec("DELETE FROM items WHERE id IN (SELECT id FROM items ORDER BY id LIMIT 5)");
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await notices()).not.toContain("storage_budget");
    expect((await post("S-after", 1)).status).toBe(200);
  });

  it("refuses the station's work too once its reserve is spent", async () => {
    t = await startTestAgent({
      storage: { maxDatabaseBytes: 1_000_000, minFreeDiskBytes: 0, stationReserveBytes: 0 },
    });
    // the database past its budget (a table written beside the agent's unit of work)
    t.agent.db.sqlite.exec("CREATE TABLE filler (b BLOB); INSERT INTO filler VALUES (randomblob(1500000))");
    const res = await t.call("POST", "/station/seats/front/login", { user: "alice" });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: "storage_budget" });
  });

  it("refuses changes while the disk has less than storage.minFreeDiskBytes free", async () => {
    t = await startTestAgent({ storage: { maxDatabaseBytes: 2 ** 40, minFreeDiskBytes: 2 ** 48 } });
    const res = await t.call("POST", ITEM, itemBody("D-1"));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: "storage_budget",
      errors: [{ path: "storage.minFreeDiskBytes" }],
    });
  });

  it("refuses a change whose notifications would wait beyond outbox.maxUndeliveredBytes", async () => {
    t = await startTestAgent({ outbox: { maxUndelivered: 1000, maxUndeliveredBytes: 1_000_000 } });
    const { unitOfWork, repos } = t.agent.services;
    const big = "y".repeat(300_000);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      try {
        unitOfWork.run((tx) => tx.notify("order_information", { i, big }));
        outcomes.push("ok");
      } catch (e) {
        outcomes.push(e instanceof AppError ? `${e.code} ${e.errors[0]?.path}` : String(e));
      }
    }
    // the limit is checked before each append: the fourth takes the outbox past 1 MB, the fifth is refused
    expect(outcomes).toEqual(["ok", "ok", "ok", "ok", "outbox_full outbox.maxUndeliveredBytes"]);
    expect(repos.outbox.undeliveredCount()).toBe(4);
  });
});
