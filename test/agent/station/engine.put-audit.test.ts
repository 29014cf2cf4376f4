import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StationEngine } from "../../../src/station/engine.js";
import type { TestAgent } from "../../support/agent.js";
import {
  CORE,
  kinds,
  NotificationReader,
  ok,
  putBody,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";
import { type EngineRig, startEngineRig } from "./engine-setup.js";
import type { FakeHub } from "./fake-hub.js";

let rig: EngineRig;
let t: TestAgent;
let n: NotificationReader;
let hub: FakeHub;
let engine: StationEngine;
const later = () => rig.later();
const AUDIT = "/api-gateway/integration-service/wms-integration/core/api/audit";

beforeAll(async () => {
  rig = await startEngineRig();
  ({ t, hub, engine } = rig);
  n = new NotificationReader(t);
  for (const sku of ["A", "B"]) await seedItem(t, sku);
});
afterAll(async () => rig.close());

describe("engine shell: a put by scans and the tote bin's button", () => {
  it("item, item, slot, button → put; item, key-in, slot, EXC-CONFIRM → complete; tote scan → released", async () => {
    await ok(t.call("PUT", "/station/mode", { mode: "put" }));
    hub.scan("BADGE-bob");
    await ok(t.call("POST", SR, putBody("U1", [["A", 3]], "T-9")));
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, { serviceRequestId: "U1", ppsId: "7", ppsBinId: "3" }),
    );
    await n.catchUp();
    await n.waitFor(1);
    await ok(t.call("POST", "/station/racks", { msu: "M5", locations: ["S50", "S51"] }));

    later();
    hub.scan("BC-A");
    expect(hub.showing("3")).toBe("green 1");
    later();
    hub.scan("BC-A");
    expect(hub.showing("3")).toBe("green 2");
    later();
    expect(engine.scan("front", "S50", "scanner-front")).toMatchObject({
      did: "slot_selected",
      step: "put_confirm",
    });
    expect(hub.press("3")).toBe(true);
    expect(hub.showing("3")).toBe("off");
    expect(t.agent.services.repos.stock.stockAt("S50", 1)?.quantity).toBe(2);

    later();
    hub.scan("BC-A");
    expect(engine.keyin("front", 1)).toMatchObject({ did: "quantity_set" });
    hub.scan("S51");
    later();
    expect(engine.scan("front", "EXC-CONFIRM", "scanner-front")).toMatchObject({
      did: "put",
      calls: ["put"],
    });
    expect(kinds(await n.next())).toEqual([["put_information", "complete"]]);
    expect(hub.showing("3")).toBe("green blink");

    later();
    expect(engine.scan("front", "T-9", "scanner-front")).toMatchObject({ as: "tote", did: "released" });
    expect(await n.next()).toEqual([]); // released sends no notification (put.machine.ts)
    expect((await ok(t.call("GET", `${SR}/U1?type=PUT`))).state).toBe("released");
    expect(hub.showing("3")).toBe("off");
  });

  it("a key-in above what the tote still holds is refused with an error signal", async () => {
    await ok(t.call("POST", SR, putBody("U2", [["B", 1]], "T-10")));
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, { serviceRequestId: "U2", ppsId: "7", ppsBinId: "4" }),
    );
    await n.waitFor(1);
    later();
    hub.scan("BC-B");
    later();
    hub.scan("S50");
    const mark = hub.sent.length;
    expect(engine.keyin("front", 2)).toMatchObject({ result: "refused", reason: "more_than_expected" });
    expect(hub.since(mark)).toEqual(["error 4"]);
    expect(engine.scan("front", "EXC-PHYSICALLY_DAMAGED")).toMatchObject({ did: "put_exception" });
    expect(kinds(await n.next())).toEqual([
      ["put_information", "put_transaction"],
      ["put_information", "complete"],
    ]);
  });
});

describe("engine shell: an audit counted by scans", () => {
  it("slot, each unit scanned, EXC-CONFIRM → the lines are counted and the audit completes", async () => {
    later();
    engine.scan("front", "T-10");
    await ok(t.call("PUT", "/station/mode", { mode: "audit" }));
    await setStock(t, "S60", "M6", "A", 2);
    await setStock(t, "S60", "M6", "B", 1);
    const { audit_id: id } = await ok(
      t.call("POST", AUDIT, {
        action: "create",
        audit_param_name: "count",
        audit_param_type: "location",
        audit_param_value: { locations_list: ["S60"] },
        kq: false,
      }),
    );
    await ok(t.call("POST", `/station/audits/${id}/start`));
    await ok(t.call("POST", `/station/audits/${id}/begin`, { seat: "front" }));
    await n.catchUp();

    for (const code of ["S60", "BC-A", "BC-B", "BC-A"]) {
      later();
      expect(engine.scan("front", code), code).toMatchObject({ result: "done" });
    }
    expect(engine.keyin("front", 5)).toMatchObject({ result: "refused", reason: "keyin_not_allowed" });
    later();
    expect(engine.scan("front", "EXC-CONFIRM")).toMatchObject({
      did: "location_counted",
      calls: ["auditCount", "auditCount"],
    });
    const notes = await n.next();
    expect(notes.map((x) => x.notification_data.audit_status)).toEqual(["completed"]);
  });
});
