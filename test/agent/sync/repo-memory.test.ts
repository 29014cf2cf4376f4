import { join } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAuditsRepo } from "../../../src/db/audits.repo.js";
import { createItemsRepo } from "../../../src/db/items.repo.js";
import { openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { createRequestsRepo } from "../../../src/db/requests.repo.js";
import { createStationRepo } from "../../../src/db/station.repo.js";
import { EventBus } from "../../../src/events.js";
import { createUnitOfWork } from "../../../src/services/unit-of-work/unit-of-work.js";
import { tempDir } from "../../support/agent.js";

/**
 * What repositories hold in memory beside their tables (the outbox's next seq, a block of entity ids,
 * the station's mode, seats and bins, the slots audits hold) follows every commit and forgets what a
 * rollback undid: the database stays the truth.
 */
function setup(file = join(tempDir(), "memory.db")) {
  const handle = openDatabase(file);
  const outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "7" });
  const requests = createRequestsRepo(handle.sqlite);
  const station = createStationRepo(handle.sqlite);
  const audits = createAuditsRepo(handle.sqlite);
  const uow = createUnitOfWork({
    sqlite: handle.sqlite,
    outbox,
    bus: new EventBus(),
    now: () => 1000,
    log: pino({ level: "silent" }),
    outboxLimit: 1000,
    memory: [requests, station, audits],
  });
  return { file, handle, outbox, requests, station, audits, uow };
}

const boom = () => {
  throw new Error("boom");
};

describe("repository memory and rollbacks", () => {
  it("outbox seqs stay gapless when a change of a group commit or a savepoint rolls back", async () => {
    const { outbox, uow } = setup();
    await Promise.all([
      uow.runAsync((t) => t.notify("order_information", { n: 1 })),
      uow
        .runAsync((t) => {
          t.notify("order_information", { n: "lost" });
          boom();
        })
        .catch(() => "refused"),
      uow.runAsync((t) => t.notify("order_information", { n: 2 })),
    ]);
    uow.run((t) => {
      expect(() =>
        uow.run((inner) => {
          inner.notify("order_information", { n: "lost" });
          boom();
        }),
      ).toThrow("boom");
      t.notify("order_information", { n: 3 });
    });
    expect(() =>
      uow.run((t) => {
        t.notify("order_information", { n: "lost" });
        boom();
      }),
    ).toThrow("boom");
    uow.run((t) => t.notify("order_information", { n: 4 }));
    const rows = outbox.after(0, 10);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => JSON.parse(r.envelope).notification_data.n)).toEqual([1, 2, 3, 4]);
  });

  it("entity ids are handed out in order and never twice: not after a rollback, not after a restart", () => {
    const first = setup();
    const ids: number[] = [];
    first.uow.run(() =>
      ids.push(first.requests.nextEntityId("container"), first.requests.nextEntityId("product")),
    );
    expect(ids).toEqual([1, 2]);
    // the rolled-back change took ids; the ones after it may skip them but never repeat an id kept
    expect(() =>
      first.uow.run(() => {
        for (let i = 0; i < 300; i++) first.requests.nextEntityId("product");
        boom();
      }),
    ).toThrow("boom");
    for (let i = 0; i < 10; i++) first.uow.run(() => ids.push(first.requests.nextEntityId("product")));
    first.handle.close();
    const again = setup(first.file);
    for (let i = 0; i < 600; i++) again.uow.run(() => ids.push(again.requests.nextEntityId("container")));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(1).every((id, i) => id > (ids[i] as number))).toBe(true);
    again.handle.close();
  });

  it("the station's mode, seats and bins in memory follow commits and forget what rolled back", () => {
    const { station, uow, handle } = setup();
    uow.run(() => station.init(["front"], ["1", "2"], "pick", 1000));
    expect(station.bins().map((b) => b.state)).toEqual(["empty", "empty"]);
    uow.run(() => {
      station.setBin("1", "pick", "none", 1000);
      station.login("front", "alice", 1000);
      station.setMode("put", 1000);
    });
    expect(() =>
      uow.run(() => {
        station.setBin("2", "complete", "waiting", 1000);
        station.login("front", null, null);
        station.setMode("audit", 1000);
        boom();
      }),
    ).toThrow("boom");
    expect(station.bins()).toEqual([
      { id: "1", state: "pick", printState: "none" },
      { id: "2", state: "empty", printState: "none" },
    ]);
    expect(station.seat("front")?.userName).toBe("alice");
    expect(station.mode()).toBe("put");
    const fresh = createStationRepo(handle.sqlite);
    expect([fresh.bins(), fresh.seats(), fresh.mode()]).toEqual([
      station.bins(),
      station.seats(),
      station.mode(),
    ]);
  });

  it("the slots audits hold follow the audit's status, and a rolled-back status is forgotten", () => {
    const { audits, uow, handle } = setup();
    const items = createItemsRepo(handle.sqlite);
    const item = {
      clientItemId: null,
      productSku: "A",
      clientCategoryId: null,
      schemaJson: "{}",
      ownSchema: false,
    };
    const itemId = uow.run(() => items.insert({ ...item, doc: "{}" }, 1000));
    const audit = uow.run(() => {
      const a = audits.insert(
        {
          auditId: "A-1",
          name: "count",
          paramType: "location",
          paramValueJson: '["S1"]',
          kq: false,
          creatorName: null,
          userName: null,
        },
        1000,
      );
      audits.insertLine(
        a.id,
        { auditLineId: "L1", itemId, location: "S1", status: "created", expectedQty: 0 },
        1000,
      );
      return a;
    });
    expect([...audits.lockedLocations()]).toEqual([]);
    const patch = { pausedFrom: null, ppsSeatName: null, userName: null, completedOn: null };
    expect(() =>
      uow.run(() => {
        audits.update(audit.id, { ...patch, status: "started" }, 1000);
        expect([...audits.lockedLocations()]).toEqual(["S1"]);
        boom();
      }),
    ).toThrow("boom");
    expect([...audits.lockedLocations()]).toEqual([]);
    uow.run(() => audits.update(audit.id, { ...patch, status: "queued" }, 1000));
    expect([...audits.lockedLocations()]).toEqual(["S1"]);
  });
});
