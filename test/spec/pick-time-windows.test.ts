import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../support/agent.js";
import { kinds, ok, pickBody, pickLine } from "../support/station.js";
import { pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: "Pick request" root attributes pick_after_time, pick_before_time and simple_priority
 * ("critical orders may even cross the before/after time boundaries"), with the station in
 * Europe/Berlin (UTC+1 in November) so that times without an offset are read in its zone. Time is the
 * test agent's clock; the scheduler's pass (releaseHeldWork) is what its timer runs at each time.
 */
let t: TestAgent;
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];
let item: Record<string, number>;

beforeAll(async () => {
  ({ t, central, c, item } = await pickStation(["A", "B", "C", "D"], {
    timeZone: "Europe/Berlin",
    tokenTtlSeconds: 7 * 24 * 3600,
  }));
  await c.stock("SA", "MA", "A", 100);
  await c.stock("SB", "MB", "B", 100);
  await c.stock("SC", "MC", "C", 100);
  await c.stock("SD", "MD", "D", 100);
});
afterAll(async () => central?.close());

const at = (iso: string) => {
  t.clock.now = Date.parse(iso);
};
const schedulerPass = () => t.agent.services.operations.releaseHeldWork();
const binOf = async (id: string) => (await c.get(id)).attributes.pps_bin_id as string | null;

describe("pick_after_time: time after which the order may be picked", () => {
  it("Pick request: pick_after_time (with offset) | before that time → no bin, not locked at a presented rack; from then on it is", async () => {
    at("2026-11-21T10:00:00Z");
    await c.create(
      pickBody("AF1", [pickLine("AF1-1", "A", 1)], { pick_after_time: "2026-11-21T12:00:00+01:00" }),
    );
    expect(t.agent.services.workOrder.nextHeldRelease(t.clock.now)).toBe(Date.parse("2026-11-21T11:00:00Z"));
    await c.present("MA", ["SA"]);
    expect(await c.get("AF1")).toMatchObject({ state: "fulfillable", attributes: { pps_bin_id: null } });
    const state = await ok(t.call("GET", "/station/state"));
    expect(state.heldBack).toEqual([
      { externalServiceRequestId: "AF1", pickAfter: "2026-11-21T11:00:00.000Z" },
    ]);
    at("2026-11-21T10:59:59Z");
    schedulerPass();
    expect(await binOf("AF1")).toBeNull();
    at("2026-11-21T11:00:00Z");
    await central.mark();
    schedulerPass();
    expect(kinds(await central.since())).toEqual([["order_information", "cancellation_locked"]]);
    expect(await binOf("AF1")).not.toBeNull();
    await c.gone("MA");
    expect((await c.pick("AF1", "AF1-1", "SA", 1)).status).toBe(409);
  });

  it("Pick request: simple_priority critical | may cross pick_after_time → a bin and the lock at once", async () => {
    at("2026-11-22T10:00:00Z");
    await c.create(
      pickBody("AF2", [pickLine("AF2-1", "B", 1)], {
        simple_priority: "critical",
        pick_after_time: "2026-11-22T18:00:00Z",
      }),
    );
    expect(await binOf("AF2")).not.toBeNull();
    await c.present("MB", ["SB"]);
    expect((await c.get("AF2")).state).toBe("cancellation_locked");
    await c.gone("MB");
  });
});

describe("pick_before_time: deadline before which the order must be picked", () => {
  it("Pick request: pick_before_time (no offset, station time zone) passes before the first pick → not_fulfillable (status FAILED) | order_information; critical ones stay", async () => {
    at("2026-11-23T10:00:00Z");
    const deadline = { pick_before_time: "2026-11-23T11:30:00" }; // 10:30Z in Berlin
    await c.create(pickBody("BF1", [pickLine("BF1-1", "C", 2)], deadline));
    await c.create(
      pickBody("BF2", [pickLine("BF2-1", "C", 2)], { ...deadline, simple_priority: "critical" }),
    );
    expect(t.agent.services.workOrder.nextHeldRelease(t.clock.now)).toBe(Date.parse("2026-11-23T10:30:00Z"));
    at("2026-11-23T10:29:59Z");
    schedulerPass();
    expect((await c.get("BF1")).state).toBe("fulfillable");
    const bin = await binOf("BF1");
    expect(bin).not.toBeNull();
    at("2026-11-23T10:30:00Z");
    await central.mark();
    schedulerPass();
    const list = await central.since();
    expect(kinds(list)).toEqual([["order_information", "not_fulfillable"]]);
    expect(list[0]?.notification_data).toMatchObject({ externalServiceRequestId: "BF1", status: "FAILED" });
    expect((await c.get("BF2")).state).toBe("fulfillable");
    expect(c.onHand("SC", item.C as number)).toMatchObject({ reserved: 2 });
    const state = await ok(t.call("GET", "/station/state"));
    const bf1Bin = state.bins.find((b: { ppsBinId: string }) => b.ppsBinId === bin);
    expect(bf1Bin).toMatchObject({ state: "empty", requests: [] });
    expect((await c.cancel("BF2")).status).toBe(202);
  });

  it("Pick request: pick_before_time passes while cancellation_locked (not started) → not_fulfillable; a pick after it is refused", async () => {
    at("2026-11-24T10:00:00Z");
    await c.create(
      pickBody("BF3", [pickLine("BF3-1", "D", 1)], { pick_before_time: "2026-11-24T10:05:00Z" }),
    );
    await c.present("MD", ["SD"]);
    expect((await c.get("BF3")).state).toBe("cancellation_locked");
    at("2026-11-24T10:05:00Z");
    const refused = await c.pick("BF3", "BF3-1", "SD", 1);
    expect(refused.status).toBe(409);
    schedulerPass();
    expect((await c.get("BF3")).state).toBe("not_fulfillable");
    expect(c.onHand("SD", item.D as number)).toMatchObject({ quantity: 100, reserved: 0 });
    await c.gone("MD");
  });

  it("Pick request: pick_before_time already passed at create → not_fulfillable at once", async () => {
    at("2026-11-25T10:00:00Z");
    await central.mark();
    await c.create(
      pickBody("BF4", [pickLine("BF4-1", "A", 1)], { pick_before_time: "2026-11-25T09:00:00Z" }),
    );
    expect(kinds(await central.since())).toEqual([["order_information", "not_fulfillable"]]);
    // a modify that moves the deadline allocates again
    await c.modify("BF4", { attributes: { pick_before_time: "2026-11-25T12:00:00Z" } });
    expect((await c.get("BF4")).state).toBe("fulfillable");
    expect((await c.cancel("BF4")).status).toBe(202);
  });
});
