/**
 * A full disk, made with SQLite's `max_page_count` on the agent's own connection (the database may not
 * grow past its pages, exactly as when the file system has no block left): every write is refused with
 * `503 storage_full` and changes nothing, `/readyz` names the storage while it lasts, reads are still
 * served, the episode is logged once, and the first write after space was freed succeeds and ends it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Sqlite } from "../../../src/db/open.js";
import { passwordGrant, SCRAPE, startTestAgent, type TestAgent, TOKEN_PATH } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { LogLines } from "../../support/log-lines.js";
import { ITEM } from "../../support/station.js";
import { agentOn, ask, centralOn, committed, notify } from "../../support/sync/agent.js";

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";
const SEARCH = `${ITEM}/search_v2`;
const UNLIMITED = 1_073_741_823;

const login = (t: TestAgent) => t.request(TOKEN_PATH, passwordGrant());

const items = (sqlite: Sqlite) =>
  (sqlite.prepare("SELECT count(*) AS n FROM items").get() as { n: number }).n;

/**
 * Lets the database grow no further, then uses up its free pages (a filler table written past the
 * agent's unit of work, so no episode starts here), so the agent's next write that needs a page fails.
 */
function fillDisk(sqlite: Sqlite): void {
  sqlite.exec("CREATE TABLE IF NOT EXISTS filler (b BLOB)");
  sqlite.pragma(`max_page_count = ${sqlite.pragma("page_count", { simple: true })}`);
  const fill = sqlite.prepare("INSERT INTO filler VALUES (randomblob(?))");
  for (const size of [4000, 500, 50]) {
    try {
      for (;;) fill.run(size);
    } catch (e) {
      expect((e as { code?: string }).code).toBe("SQLITE_FULL");
    }
  }
}

function freeDisk(sqlite: Sqlite): void {
  sqlite.pragma(`max_page_count = ${UNLIMITED}`);
}

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("a full disk", () => {
  it("refuses writes with 503 storage_full, keeps serving reads, and recovers once space is freed", async () => {
    const log = new LogLines();
    t = await startTestAgent({ log: { level: "info" } }, { logTo: log });
    const { sqlite } = t.agent.db;
    const acknowledged: string[] = [];
    for (const sku of ["A-1", "A-2", "A-3"]) {
      expect((await t.call("POST", ITEM, itemBody(sku))).status).toBe(200);
      acknowledged.push(sku);
    }
    expect((await t.request("/readyz")).status).toBe(200);
    fillDisk(sqlite);

    // writes until the disk is full: each answered 200 (kept) or 503 storage_full (nothing of it stored)
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await t.call("POST", ITEM, itemBody(`B-${i}`));
      if (res.status === 200) acknowledged.push(`B-${i}`);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(await refused?.json()).toMatchObject({ code: "storage_full" });
    expect(items(sqlite)).toBe(acknowledged.length);
    const again = await t.call("POST", ITEM, itemBody("C-1"));
    expect(again.status).toBe(503);
    expect(items(sqlite)).toBe(acknowledged.length);

    // a login writes its token outside the unit of work: refused alike, once the token table is full too
    const logins: number[] = [];
    for (let i = 0; i < 100 && !logins.includes(503); i++) {
      const res = await login(t);
      logins.push(res.status);
      if (res.status === 503) expect(await res.json()).toMatchObject({ code: "storage_full" });
    }
    expect(logins.filter((s) => s !== 200)).toEqual([503]);

    const ready = await t.request("/readyz");
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as {
      ready: boolean;
      checks: Record<string, { ok: boolean; detail?: string }>;
    };
    expect(body.checks.storage).toMatchObject({ ok: false });
    expect(body.checks.storage?.detail).toContain("SQLITE_FULL");
    expect(body.checks.database?.ok).toBe(true);
    expect((await t.call("GET", CATALOG)).status).toBe(200);
    const found = await t.call("POST", SEARCH, { filter: {}, page: 0, size: 10 });
    expect(found.status).toBeLessThan(500);
    const metrics = await (await t.request("/metrics", SCRAPE)).text();
    expect(metrics).toMatch(/db_storage_failures_total\{code="SQLITE_FULL"\} [2-9]/);
    expect(metrics).toMatch(/db_storage_healthy 0/);

    freeDisk(sqlite);
    expect((await t.call("POST", ITEM, itemBody("D-1"))).status).toBe(200);
    acknowledged.push("D-1");
    expect((await t.request("/readyz")).status).toBe(200);
    expect(await (await t.request("/metrics", SCRAPE)).text()).toMatch(/db_storage_healthy 1/);
    const skus = sqlite.prepare("SELECT product_sku AS s FROM items ORDER BY id").all() as Array<{
      s: string;
    }>;
    expect(skus.map((r) => r.s)).toEqual(acknowledged);

    const lines = log.lines.map((l) => JSON.parse(l) as { msg: string; code?: string; level: string });
    const failing = lines.filter((l) => l.msg.startsWith("database writes fail"));
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({ code: "SQLITE_FULL", level: "error" });
    expect(lines.filter((l) => l.msg === "database writes succeed again")).toHaveLength(1);
    // one error line for the whole episode: no line per refused request
    expect(lines.filter((l) => l.level === "error")).toEqual([failing[0]]);
  });

  it("answers an MQTT request with storage_full and changes nothing", async () => {
    t = await agentOn("embedded");
    const central = await centralOn(t);
    try {
      const { sqlite } = t.agent.db;
      const catalogs = () => (sqlite.prepare("SELECT count(*) AS n FROM catalogs").get() as { n: number }).n;
      fillDisk(sqlite);
      const catalog = (id: string) => ({
        transaction: id,
        clientCatalogId: id,
        description: "shoes",
        exhaustive_pdea_list: [
          {
            field_name: "product_sku",
            field_data_type: "string",
            display_data: [{ locale: "en-US", display_name: "SKU" }],
          },
        ],
      });
      // requests until the disk is full: each answered ok (kept) or storage_full (nothing of it stored)
      let kept = catalogs();
      let refused: { transaction: string; status: string } | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const answer = JSON.parse(await ask(central, "upsert_catalog", catalog(`F-${i}`)));
        if (answer.status === "ok") kept++;
        else refused = answer;
      }
      expect(refused).toMatchObject({ status: "error", error: { status: 503, code: "storage_full" } });
      expect(catalogs()).toBe(kept);
      freeDisk(sqlite);
      const later = JSON.parse(await ask(central, "upsert_catalog", catalog("G-1")));
      expect(later).toMatchObject({ transaction: "G-1", status: "ok" });
      expect(catalogs()).toBe(kept + 1);
    } finally {
      await central.close();
    }
  });

  it("keeps delivering notifications when the delivery cursor cannot be written, and records it later", async () => {
    t = await agentOn("embedded");
    const central = await centralOn(t, ["notification"]);
    try {
      const { outbox } = t.agent.services.repos;
      const setCursor = outbox.setCursor;
      let refused = 0;
      // the cursor's one row is rewritten in place, which max_page_count cannot refuse: the disk's answer is played
      outbox.setCursor = () => {
        refused++;
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      };
      const before = outbox.cursor();
      for (let i = 0; i < 3; i++) notify(t, "order_information", { i });
      await central.waitFor(
        "3 notifications",
        (m) => m.filter((x) => x.topic.endsWith("/notification")).length >= 3,
      );
      await until("the cursor's write refused", () => refused > 0);
      expect(outbox.cursor()).toBe(before);
      outbox.setCursor = setCursor;
      notify(t, "order_information", { i: 3 });
      await central.waitFor(
        "4 notifications",
        (m) => m.filter((x) => x.topic.endsWith("/notification")).length >= 4,
      );
      const last = committed(t).length;
      await until("every notification delivered", () => outbox.cursor() >= last);
      expect(outbox.cursor()).toBe(last);
    } finally {
      await central.close();
    }
  });
});
