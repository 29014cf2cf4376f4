import { join } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { isAppError } from "../../../src/domain/errors.js";
import { EventBus } from "../../../src/events.js";
import { createUnitOfWork } from "../../../src/services/unit-of-work/unit-of-work.js";
import { tempDir } from "../../support/agent.js";

function setup(limit = 1000) {
  const handle = openDatabase(join(tempDir(), "outbox.db"));
  const outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "7" });
  const bus = new EventBus();
  const seen: number[] = [];
  bus.on("test", "outbox", (e) => seen.push(e.lastSeq));
  const tx = createUnitOfWork({
    sqlite: handle.sqlite,
    outbox,
    bus,
    now: () => 1000,
    log: pino({ level: "silent" }),
    outboxLimit: limit,
  });
  handle.sqlite.exec("CREATE TABLE things (n INTEGER)");
  return { handle, outbox, tx, seen };
}

describe("outbox and transactions", () => {
  it("writes the exact envelope with a station-scoped id, in sequence, and wakes readers after commit", () => {
    const { outbox, tx, seen } = setup();
    tx.run((t) => {
      t.notify("order_information", { state: "fulfillable" });
      t.notify("bin_complete", { ppsBinId: "1" });
    });
    const rows = outbox.after(0, 10);
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(JSON.parse(rows[0]?.envelope as string)).toEqual({
      notification_type: "order_information",
      version_number: "1.5.0",
      notification_id: "dc1.7.1",
      notification_data: { state: "fulfillable" },
    });
    expect(seen).toEqual([2]);
  });

  it("a failed change leaves neither its rows nor its notifications", () => {
    const { handle, outbox, tx, seen } = setup();
    expect(() =>
      tx.run((t) => {
        handle.sqlite.prepare("INSERT INTO things VALUES (1)").run();
        t.notify("order_information", {});
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(outbox.after(0, 10)).toEqual([]);
    expect(handle.sqlite.prepare("SELECT count(*) AS n FROM things").get()).toEqual({ n: 0 });
    expect(seen).toEqual([]);
  });

  it("never reuses a sequence number after delivered rows are pruned", () => {
    const { outbox, tx } = setup();
    tx.run((t) => {
      t.notify("order_information", {});
      t.notify("order_information", {});
    });
    outbox.setCursor(2);
    expect(outbox.backfill(500, 10)).toBe(2);
    expect(outbox.prune(1000)).toBe(2);
    tx.run((t) => t.notify("order_information", {}));
    expect(outbox.after(0, 10).map((r) => [r.seq, r.notificationId])).toEqual([[3, "dc1.7.3"]]);
  });

  it("refuses a change with 503 outbox_full when too many wait undelivered, dropping nothing", () => {
    const { outbox, tx } = setup(100);
    tx.run((t) => {
      for (let i = 0; i < 100; i++) t.notify("order_information", { i });
    });
    let code = "";
    try {
      tx.run((t) => t.notify("order_information", { i: 100 }));
    } catch (e) {
      code = isAppError(e) ? e.code : "other";
    }
    expect(code).toBe("outbox_full");
    expect(outbox.undeliveredCount()).toBe(100);
    outbox.setCursor(50);
    tx.setUndelivered(outbox.undeliveredCount());
    tx.run((t) => t.notify("order_information", { i: 100 }));
    expect(outbox.undeliveredCount()).toBe(51);
    expect(outbox.after(0, 1000)).toHaveLength(101);
  });
});
