/**
 * A refusal that concerns no bin (a scan at a seat with nothing lit) shows its error signal on the
 * station's own signal light, the IRT bin's, or on none: never on an order bin it has nothing to do
 * with, where the operator would look for a fault that is not there.
 */
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../support/deadline.js";
import { type EngineRig, sleep, startEngineRig } from "./engine-setup.js";

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("the error signal of a refusal that concerns no bin", () => {
  it("flashes the IRT bin's light, and no order bin's", async () => {
    rig = await startEngineRig();
    const mark = rig.hub.sent.length;
    const { hub } = rig;
    hub.scan("M1"); // nobody logged in at the seat: refused
    // after errorSignalMs the light is back to what it shows
    await until("the signal light back off", () => hub.since(mark).length >= 2, 2000);
    expect(hub.since(mark)).toEqual(["error IRT", "off IRT"]);
  });

  it("on a station without an IRT bin, flashes nothing", async () => {
    rig = await startEngineRig({ irtBin: false });
    const mark = rig.hub.sent.length;
    rig.hub.scan("M1");
    await sleep(100); // the subject: no light flashes within five times errorSignalMs
    expect(rig.hub.since(mark)).toEqual([]);
  });
});
