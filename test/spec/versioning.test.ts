/**
 * Conformance: "Events" → the notification envelope, and "Versioning" rules 1, 2 and 4 with the
 * client's choice of a version, which the spec leaves not shown (docs/decisions.md#general). Every
 * notification type the agent emits is driven once and read off the embedded broker as central
 * receives it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../support/deadline.js";
import {
  CORE,
  type Envelope,
  type Json,
  ok,
  pickBody,
  pickLine,
  putBody,
  SR,
  seedItem,
  setStock,
} from "../support/station.js";
import { pickCalls } from "./pick-support.js";
import { type Central, startCentral } from "./support/central.js";
import { AUDIT, AUDIT_BODY, CATALOG, GENERATE } from "./support/endpoints.js";

const ENVELOPE = ["notification_data", "notification_id", "notification_type", "version_number"];
const TYPES = [
  "audit_information",
  "bin_complete",
  "order_information",
  "order_modification",
  "pack_information",
  "put_information",
  "report_generation",
];

let c: Central;
let p: ReturnType<typeof pickCalls>;
/** Every notification central received in this file, in order. */
const received: Envelope[] = [];

beforeAll(async () => {
  c = await startCentral();
  p = pickCalls(c.t);
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await ok(c.t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => c?.close());

async function drive(action: () => Promise<unknown>): Promise<Envelope[]> {
  await c.mark();
  await action();
  const got = await c.since();
  received.push(...got);
  return got;
}

/** The staging conditions are checked right after the stage call (docs/decisions.md#service-requests-pick-pickpack-put): waits for that. */
async function stagingEvaluated(id: string): Promise<void> {
  const end = Date.now() + deadline(5000);
  while ((await ok(c.t.call("GET", `${SR}/${id}?type=PUT`))).state === "stage_requested" && Date.now() < end)
    await new Promise((r) => setTimeout(r, 10));
}

/** A pick+pack of one SHIRT picked in full and its label printed: order_information … pack_information. */
async function pickAndPack(): Promise<void> {
  const pack = { packing_box_id: "BOX-V", order_number: "O-V", shipping_address: "1 Main St" };
  await p.create(
    pickBody("V-PACK", [pickLine("V-PACK-1", "SHIRT", 1, pack)], { simple_priority: "critical" }),
  );
  await p.present("MSU-1", ["S-1"]);
  expect((await p.pick("V-PACK", "V-PACK-1", "S-1", 1)).status).toBe(200);
  expect((await p.printReady("V-PACK")).status).toBe(200);
  await p.gone("MSU-1");
}

describe("the envelope", () => {
  it("Events: every notification_type (audit_information, bin_complete, order_information, order_modification, pack_information, put_information, report_generation) | notification_type, version_number, notification_id, notification_data", async () => {
    await drive(pickAndPack);
    await drive(async () => {
      await p.create(pickBody("V-CANCEL", [pickLine("V-CANCEL-1", "SHIRT", 1)]));
      expect((await p.cancel("V-CANCEL")).status).toBe(202);
    });
    await drive(async () => {
      await ok(c.t.call("POST", SR, putBody("V-PUT", [["SHIRT", 1]])));
      await ok(
        c.t.call("POST", `${CORE}/stage_put_expectation`, {
          serviceRequestId: "V-PUT",
          ppsId: "7",
          ppsBinId: "1",
        }),
      );
      await stagingEvaluated("V-PUT");
    });
    await drive(async () => ok(c.t.call("POST", AUDIT, AUDIT_BODY)));
    await drive(async () => {
      await ok(c.t.call("POST", GENERATE));
      await c.t.agent.services.reports.idle();
    });
    expect([...new Set(received.map((n) => n.notification_type))].sort()).toEqual(TYPES);
    for (const n of received) {
      expect([n.notification_type, Object.keys(n).sort()]).toEqual([n.notification_type, ENVELOPE]);
      expect(typeof n.notification_id).toBe("string");
      expect(typeof n.notification_data).toBe("object");
    }
  });

  it("Versioning 1: Notifications carry version_number, value 1.5.0", () => {
    expect(received.length).toBeGreaterThan(0);
    for (const n of received)
      expect([n.notification_type, n.version_number]).toEqual([n.notification_type, "1.5.0"]);
  });

  it("Events: notification_id | unique id of the notification (never notification_seq: Versioning 4, decision)", () => {
    const ids = received.map((n) => n.notification_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const n of received) expect(n).not.toHaveProperty("notification_seq");
    for (const id of ids) expect(id).toMatch(/^dc1\.7\.\d+$/);
  });
});

describe("fields added in a release (Versioning 2)", () => {
  it("Versioning 2: simple_priority (4.0) is accepted and echoed in the response and in order_information", async () => {
    const got = await drive(async () => {
      const res = await p.create(
        pickBody("V-PRIO", [pickLine("V-PRIO-1", "SHIRT", 1)], { simple_priority: "low" }),
      );
      expect(res.attributes.simple_priority).toBe("low");
    });
    const info = got.find((n) => n.notification_type === "order_information")?.notification_data as Json;
    expect(info.attributes.simple_priority).toBe("low");
    await p.cancel("V-PRIO");
  });

  it("Versioning 2: audit_param_type and quantity_details (4.1) are present in audit notifications", async () => {
    const got = await drive(async () => {
      const { audit_id } = await ok(c.t.call("POST", AUDIT, { ...AUDIT_BODY, audit_param_type: "location" }));
      await ok(c.t.call("PUT", "/station/mode", { mode: "audit" }));
      await ok(c.t.call("POST", `/station/audits/${audit_id}/start`));
      await ok(c.t.call("PUT", "/station/mode", { mode: "pick" }));
    });
    const audits = got
      .filter((n) => n.notification_type === "audit_information")
      .map((n) => n.notification_data);
    for (const a of audits) expect(a.audit_param_type).toBe("location");
    const lines = audits.flatMap((a) => (a.audit_data ?? []) as Json[]);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines)
      expect(Object.keys(l.quantity_details).sort()).toEqual([
        "damaged_qty",
        "good_qty",
        "missing_qty",
        "system_removed_qty",
        "unscannable_qty",
      ]);
  });
});

describe("older behaviours and the choice of a version", () => {
  it("Versioning 4: put cancel and modify answer the variant that echoes the request (decision: {id, externalServiceRequestId, type})", async () => {
    await ok(c.t.call("POST", SR, putBody("V-PUT-2", [["SHIRT", 1]], "TOTE-2")));
    const modify = await ok(
      c.t.call("POST", `${SR}/modify`, {
        externalServiceRequestId: "V-PUT-2",
        type: "PUT",
        attributes: { tote_id: "TOTE-3" },
      }),
    );
    expect(modify).toEqual({ id: expect.any(Number), externalServiceRequestId: "V-PUT-2", type: "PUT" });
    const cancel = await ok(
      c.t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "V-PUT-2", type: "PUT" }),
    );
    expect(cancel).toEqual({ id: modify.id, externalServiceRequestId: "V-PUT-2", type: "PUT" });
  });

  it("Versioning: How a client selects a version: not shown → there is one version; a version header or media type parameter is ignored (decision)", async () => {
    const token = await c.t.token();
    const plain = await (
      await c.t.request(CATALOG, { headers: { Authorization: `Bearer ${token}` } })
    ).text();
    const variants: Array<Record<string, string>> = [
      { "Accept-Version": "1.0" },
      { "X-API-Version": "4.0" },
      { Accept: "application/json; version=1.0" },
    ];
    for (const headers of variants) {
      const res = await c.t.request(CATALOG, { headers: { Authorization: `Bearer ${token}`, ...headers } });
      expect([headers, res.status, await res.text()]).toEqual([headers, 200, plain]);
    }
  });
});
