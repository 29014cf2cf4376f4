import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, kinds, ok, pickBody, pickLine } from "../support/station.js";
import { pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: "Pick request" root attribute pick_after_time ("time after which the order may be
 * picked") at the level of the station's lights (docs/decisions.md#service-requests-pick-pickpack-put: held back, "nothing lit"), on
 * the simulated station (`/station/scans`, `/station/sim/lights`). Time is the test agent's clock.
 */
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];

beforeAll(async () => {
  ({ central, c } = await pickStation(["L"], { tokenTtlSeconds: 7 * 24 * 3600 }));
  await c.stock("SL", "ML", "L", 10);
});
afterAll(async () => central?.close());

const at = (iso: string) => {
  central.t.clock.now = Date.parse(iso);
};
const scan = (barcode: string) => central.call("POST", "/station/scans", { seat: "front", barcode });
async function shown(): Promise<Json[]> {
  const { lights } = await ok(central.call("GET", "/station/sim/lights"));
  return (lights as Json[]).filter((l) => l.mode === "show");
}

describe("pick_after_time at the lights", () => {
  it("Pick request: pick_after_time | before that time → the rack presented and the item scanned light nothing for the request; from then on its bin is lit", async () => {
    at("2026-11-21T10:00:00Z");
    await c.create(pickBody("LT1", [pickLine("LT1-1", "L", 2)], { pick_after_time: "2026-11-21T11:00:00Z" }));
    expect(await ok(scan("ML"))).toMatchObject({ result: "done", as: "msu", did: "rack_presented" });
    at("2026-11-21T10:00:01Z");
    const early = await scan("BC-L");
    const refusal = (await early.json()) as Json;
    expect([early.status, refusal.code]).toEqual([409, "scan_refused"]);
    expect(await shown()).toEqual([]);
    expect((await c.get("LT1")).attributes.pps_bin_id).toBeNull();

    at("2026-11-21T11:00:00Z");
    await central.mark();
    central.t.agent.services.operations.releaseHeldWork();
    expect(kinds(await central.since())).toEqual([["order_information", "cancellation_locked"]]);
    const bin = (await c.get("LT1")).attributes.pps_bin_id as string;
    expect(bin).not.toBeNull();
    at("2026-11-21T11:00:01Z");
    expect(await ok(scan("BC-L"))).toMatchObject({ result: "done", as: "item", did: "bin_lit" });
    expect(await shown()).toEqual([expect.objectContaining({ ppsBinId: bin, color: "green", quantity: 2 })]);
  });
});
