/**
 * The hub itself: the simulated station drives events and records lights, a declared but absent device
 * is reported and retried without stopping the others, light commands are routed or refused with a
 * stable code, health and counts show in /metrics, and a failing subscriber does not stop the others.
 */
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createDeviceHub } from "../../../src/devices/device-hub.js";
import { isDeviceUnavailable } from "../../../src/devices/drivers/adapter.types.js";
import { binSimulator } from "../../../src/devices/drivers/sim/simulator.js";
import type { DeviceEvent } from "../../../src/devices/hub.types.js";
import { loadStation } from "../../../src/devices/station-file/station-file.js";
import { isAppError } from "../../../src/domain/errors.js";
import { Metrics } from "../../../src/metrics.js";
import { createTopology } from "../../../src/station/topology.js";
import { FAST, startHub, testProfiles } from "../../support/devices/harness.js";
import { linkPaths } from "../../support/devices/pty.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function simulatedHub() {
  const station = await loadStation({ seats: ["front", "back"], bins: ["1", "2", "3"] });
  const metrics = new Metrics();
  let announced = 0;
  const hub = createDeviceHub({
    station,
    metrics,
    log: pino({ level: "silent" }),
    now: () => Date.parse("2026-11-21T10:00:00Z"),
    onHealthChange: () => announced++,
  });
  const events: DeviceEvent[] = [];
  hub.onEvent("test", (e) => events.push(e));
  await hub.start();
  cleanup.push(() => hub.stop());
  return { hub, metrics, events, announced: () => announced };
}

describe("device hub", () => {
  it("runs the embedded simulated station: scans by scanner, presses, sensors, lights read back", async () => {
    const { hub, events, metrics, announced } = await simulatedHub();
    expect(hub.source).toBeNull();
    expect(hub.health().every((h) => h.connected && h.transport === "sim")).toBe(true);
    expect(announced()).toBe(4); // each simulated device came up once

    const sim = hub.simulator();
    expect(sim.scanners()).toEqual(["sim-scanner-front", "sim-scanner-back"]);
    sim.scan("sim-scanner-front", "4006381333931");
    sim.scan("sim-scanner-back", "0109506000134352\x1d10LOT7");
    sim.press("sim-ptl", "2");
    sim.sensor("sim-sensors", "bin-3", true);
    sim.sensor("sim-sensors", "bin-3", true); // no change, no event
    const at = Date.parse("2026-11-21T10:00:00Z");
    expect(events).toEqual([
      { type: "scan", deviceId: "sim-scanner-front", value: "4006381333931", at },
      {
        type: "scan",
        deviceId: "sim-scanner-back",
        value: "0109506000134352\x1d10LOT7",
        gs1: { "01": "09506000134352", "10": "LOT7" },
        at,
      },
      { type: "button", deviceId: "sim-ptl", address: "2", button: "confirm", at },
      { type: "sensor", deviceId: "sim-sensors", channel: "bin-3", active: true, at },
    ]);
    const topology = createTopology(hub.station);
    expect(events.slice(0, 2).map((e) => topology.seatOf(e.deviceId))).toEqual(["front", "back"]);
    expect(events.slice(2).map((e) => topology.binOf(e))).toEqual(["2", "3"]);

    await hub.light({ deviceId: "sim-ptl", address: "1", mode: "show", quantity: 4, color: "green" });
    await hub.light({ deviceId: "sim-ptl", address: "1", mode: "off" });
    await hub.light({ deviceId: "sim-ptl", address: "3", mode: "error" });
    expect(sim.lights()).toEqual([
      { deviceId: "sim-ptl", address: "1", mode: "off" },
      { deviceId: "sim-ptl", address: "3", mode: "error" },
    ]);
    const text = await metrics.render();
    expect(text).toContain('device_connected{device="sim-ptl",kind="ptl-controller"} 1');
    expect(text).toContain('device_events_total{device="sim-scanner-front",type="scan"} 1');
    expect(text).toContain('device_lights_total{device="sim-ptl",outcome="ok"} 3');
  });

  it("scans at a seat on the scanner the topology gives it, and tells which seats have a simulated one", async () => {
    const { hub, events } = await simulatedHub();
    const sim = binSimulator(() => hub.simulator(), createTopology(hub.station));
    sim.scan("back", "X");
    expect(events).toMatchObject([{ type: "scan", deviceId: "sim-scanner-back", value: "X" }]);
    expect(sim.scannerOf("front")).toBe("sim-scanner-front");
    expect(sim.scannerOf("side")).toBeNull();
  });

  it("refuses simulator calls and lights for devices that are not there, with stable codes", async () => {
    const { hub } = await simulatedHub();
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isAppError(e) ? e.code : String(e);
      }
      return "no error";
    };
    const sim = hub.simulator();
    expect(codeOf(() => sim.scan("front", "x"))).toBe("not_found"); // a seat is not a scanner
    expect(codeOf(() => sim.scan("sim-ptl", "x"))).toBe("not_found");
    expect(codeOf(() => binSimulator(() => sim, createTopology(hub.station)).scan("side", "x"))).toBe(
      "not_found",
    );
    expect(codeOf(() => sim.press("sim-scanner-front", "1"))).toBe("not_found");
    expect(codeOf(() => sim.sensor("sim-ptl", "bin-1", true))).toBe("not_found");
    await expect(hub.light({ deviceId: "nope", address: "1", mode: "off" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      hub.light({ deviceId: "sim-scanner-front", address: "1", mode: "off" }),
    ).rejects.toMatchObject({
      code: "validation_failed",
    });
  });

  it("keeps a failing subscriber from stopping the others", async () => {
    const { hub, events } = await simulatedHub();
    hub.onEvent("broken", () => {
      throw new Error("subscriber bug");
    });
    hub.simulator().scan("sim-scanner-front", "A");
    hub.off("broken");
    hub.simulator().scan("sim-scanner-front", "B");
    expect(events.map((e) => e.type === "scan" && e.value)).toEqual(["A", "B"]);
  });

  it("starts with a declared device absent: reported, retried, the others running, its lights refused", async () => {
    const absent = linkPaths("absent-ptl").agent;
    const h = await startHub(
      {
        station: { seats: ["front"], bins: [{ id: "1", light: { device: "ptl", address: "001001" } }] },
        devices: [
          { id: "ptl", kind: "ptl-controller", profile: "sortexx-ascii", transport: { serial: absent } },
          { id: "scanner", kind: "scanner", profile: "serial-scanner-cr", seat: "front", transport: "sim" },
        ],
      },
      await testProfiles({ "sortexx-ascii": FAST }),
    );
    cleanup.push(() => h.stop());
    const ptl = await h.health("ptl", (x) => x.lastError !== null, "absent controller reported");
    expect(ptl).toMatchObject({
      connected: false,
      transport: absent,
      profile: "sortexx-ascii",
      kind: "ptl-controller",
    });
    expect(ptl.lastError).toMatch(/no such file|ENOENT/i);
    h.hub.simulator().scan("scanner", "STILL-WORKS");
    await expect(h.next((e) => e.type === "scan", "scan from the other device")).resolves.toMatchObject({
      value: "STILL-WORKS",
    });
    const err = await h.hub
      .light({ deviceId: "ptl", address: "001001", mode: "show" })
      .catch((e: unknown) => e);
    expect(isDeviceUnavailable(err)).toBe(true);
    expect(await h.metrics.render()).toContain('device_lights_total{device="ptl",outcome="unavailable"} 1');
    expect(await h.metrics.render()).toContain('device_connected{device="ptl",kind="ptl-controller"} 0');
  });
});
