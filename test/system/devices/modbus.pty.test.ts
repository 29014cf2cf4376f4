/**
 * Modbus RTU devices over a real pseudo-terminal, the test playing the slaves: a 16-input DI module
 * (confirm buttons and presence eyes, FC02), a Delta AS-BA light curtain (beam registers, FC03 [SRC 40])
 * and an LED-485 display (FC16 segments [SRC 35]) sharing one line, answered with real CRCs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { led485SegmentWords } from "../../../src/devices/drivers/led485/led485.codec.js";
import { registersOf } from "../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import { FAST, startHub, testProfiles } from "../../support/devices/harness.js";
import { emulateBus, readReply, writeReply } from "../../support/devices/modbus-device.js";
import { closePort, linkPaths, openDeviceEnd, ptyPair } from "../../support/devices/pty.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function line(name: string) {
  const links = linkPaths(name);
  const pty = await ptyPair(links);
  cleanup.push(() => pty.close());
  const device = await openDeviceEnd(links.device);
  cleanup.push(() => closePort(device));
  return { links, device };
}

/** 16 inputs as FC02 answer data: input n is bit n % 8 of byte n / 8. */
const inputBytes = (on: Set<number>) =>
  [0, 1].map((b) => [...on].reduce((acc, n) => (n >> 3 === b ? acc | (1 << (n & 7)) : acc), 0));

describe("Modbus devices over a pseudo-terminal", () => {
  it("polls a DI module: a press is a confirm button of its bin, a presence eye gives debounced sensor edges, a glitch none", async () => {
    const { links, device } = await line("di");
    const inputs = new Set<number>();
    const bus = emulateBus(device, { 2: (r) => (r.fc === 2 ? readReply(2, 2, inputBytes(inputs)) : null) });
    const h = await startHub(
      {
        station: {
          seats: ["front"],
          bins: [
            {
              id: "1",
              button: { device: "di", channel: "bin-1-confirm" },
              sensor: { device: "di", channel: "bin-1-present" },
            },
          ],
        },
        devices: [
          { id: "di", kind: "bin-sensor", profile: "modbus-di-16", transport: { serial: links.agent } },
        ],
      },
      await testProfiles({ "modbus-di-16": FAST }),
    );
    cleanup.push(() => h.stop());
    await h.health("di", (x) => x.connected, "DI module answering");

    inputs.add(0);
    const press = await h.next((e) => e.type === "button", "confirm press");
    expect(press).toMatchObject({ deviceId: "di", address: "bin-1-confirm", button: "confirm" });
    expect(h.binOf(press)).toBe("1");
    inputs.delete(0);

    // a presence glitch shorter than its 150 ms debounce: one poll high, then low again
    inputs.add(9);
    await bus.requests(1);
    inputs.delete(9);
    await bus.requests(3);

    inputs.add(8);
    const present = await h.next((e) => e.type === "sensor" && e.channel !== "estop", "bin 1 present");
    expect(present).toMatchObject({ deviceId: "di", channel: "bin-1-present", active: true });
    expect(h.binOf(present)).toBe("1");
    inputs.delete(8);
    await expect(
      h.next((e) => e.type === "sensor" && e.channel !== "estop", "bin 1 cleared"),
    ).resolves.toMatchObject({
      active: false,
    });
    expect(h.events.filter((e) => e.type === "sensor" && e.channel === "bin-2-present")).toEqual([]);
    expect(h.events.filter((e) => e.type === "button")).toHaveLength(1); // released is no event
    expect(bus.served.every((s) => s.unit === 2 && s.fc === 2)).toBe(true);
  });

  it("reads light-curtain beams and shares the line with displays, one request at a time", async () => {
    const { links, device } = await line("shared");
    let beams = 0x00ff; // beams 1-8 clear (1 = light passes [SRC 40]); mode byte 0 for brevity
    const display: number[][] = [];
    const bus = emulateBus(
      device,
      {
        1: (r) =>
          r.fc === 3 ? readReply(1, 3, [0x02, beams & 0xff, 0x02, 0x00, 0x02, 0x00, 0x02, 0x00]) : null,
        5: (r) => {
          if (r.kind !== "write-multiple") return null;
          display.push(registersOf(r.data));
          return writeReply(r);
        },
      },
      2, // a slave takes a moment: any request sent meanwhile would be an overlap
    );
    const h = await startHub(
      {
        station: {
          seats: ["front"],
          bins: [
            {
              id: "A1",
              light: { device: "qty", address: "5" },
              sensor: { device: "curtain", channel: "bin-A1-present" },
            },
          ],
        },
        devices: [
          {
            id: "curtain",
            kind: "bin-sensor",
            profile: "delta-as-ba-modbus",
            transport: { serial: links.agent },
          },
          {
            id: "qty",
            kind: "ptl-controller",
            profile: "led485-046-modbus",
            transport: { serial: links.agent },
          },
        ],
      },
      await testProfiles({
        "delta-as-ba-modbus": { ...FAST, pollIntervalMs: 10 },
        "led485-046-modbus": FAST,
      }),
    );
    cleanup.push(() => h.stop());
    await h.health("curtain", (x) => x.connected, "curtain answering");

    await Promise.all([
      h.hub.light({ deviceId: "qty", address: "5", mode: "show", quantity: 12 }),
      h.hub.light({ deviceId: "qty", address: "5", mode: "error" }),
    ]);
    expect(display).toEqual([led485SegmentWords("    12"), led485SegmentWords("   ERR")]);

    beams = 0x00fe; // beam 1 shaded
    const shaded = await h.next((e) => e.type === "sensor", "beam 1 shaded");
    expect(shaded).toMatchObject({ deviceId: "curtain", channel: "bin-A1-present", active: true });
    expect(h.binOf(shaded)).toBe("A1");
    expect(bus.overlaps).toBe(0);
    expect(bus.served.filter((s) => s.unit === 1).length).toBeGreaterThan(2);
  });

  it("reports a unit that stops answering as disconnected and brings it back when it answers again", async () => {
    const { links, device } = await line("silent");
    let answering = true;
    const bus = emulateBus(device, { 2: () => (answering ? readReply(2, 2, [0, 0]) : null) });
    const h = await startHub(
      {
        station: { seats: ["front"], bins: [{ id: "1" }] },
        devices: [
          { id: "di", kind: "bin-sensor", profile: "modbus-di-16", transport: { serial: links.agent } },
        ],
      },
      await testProfiles({ "modbus-di-16": { ...FAST, responseTimeoutMs: 40, retries: 1 } }),
    );
    cleanup.push(() => h.stop());
    await h.health("di", (x) => x.connected, "answering");
    answering = false;
    const down = await h.health("di", (x) => !x.connected, "silent unit reported");
    expect(down.lastError).toBe("no answer from unit 2");
    const before = bus.served.length;
    answering = true;
    await h.health("di", (x) => x.connected, "back");
    expect(bus.served.length).toBeGreaterThan(before);
  });
});
