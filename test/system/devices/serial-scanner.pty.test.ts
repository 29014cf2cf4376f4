/**
 * A scanner in serial (USB-CDC) mode over a real pseudo-terminal: the test writes what the scanner
 * sends (data + CR, profile serial-scanner-cr) and the hub emits scans; socat killed and started again
 * on the same link path is an unplug and a replug, after which the next scan still arrives.
 */
import { afterEach, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { FAST, type HubHarness, startHub, testProfiles } from "../../support/devices/harness.js";
import {
  closePort,
  linkPaths,
  openDeviceEnd,
  type PtyPair,
  ptyPair,
  writeTo,
} from "../../support/devices/pty.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function station(path: string) {
  return {
    station: { seats: ["front"], bins: [{ id: "1" }] },
    devices: [
      {
        id: "scanner-front",
        kind: "scanner",
        profile: "serial-scanner-cr",
        seat: "front",
        transport: { serial: path },
      },
    ],
  };
}

async function setUp(): Promise<{ pty: PtyPair; h: HubHarness; links: { agent: string; device: string } }> {
  const links = linkPaths("scanner");
  const pty = await ptyPair(links);
  cleanup.push(() => pty.close());
  const h = await startHub(station(links.agent), await testProfiles({ "serial-scanner-cr": FAST }));
  cleanup.push(() => h.stop());
  await h.health("scanner-front", (x) => x.connected, "scanner connected");
  return { pty, h, links };
}

describe("serial scanner over a pseudo-terminal", () => {
  it("turns CR-terminated lines into scans of the scanner, whatever the chunking; the topology gives its seat", async () => {
    const { h, links } = await setUp();
    const device = await openDeviceEnd(links.device);
    cleanup.push(() => closePort(device));

    await writeTo(device, "4006381333931\r");
    const first = await h.next((e) => e.type === "scan", "first scan");
    expect(first).toMatchObject({
      type: "scan",
      deviceId: "scanner-front",
      value: "4006381333931",
    });
    expect(h.seatOf(first.deviceId)).toBe("front");

    // a GS1 element string split at odd places, with GS between variable-length AIs
    await writeTo(device, "0109506000134352");
    await writeTo(device, "10AB-1\x1d21");
    await writeTo(device, "XYZ\r");
    const gs1 = await h.next((e) => e.type === "scan", "GS1 scan");
    expect(gs1).toMatchObject({ gs1: { "01": "09506000134352", "10": "AB-1", "21": "XYZ" } });

    const health = h.hub.health().find((x) => x.id === "scanner-front");
    expect(health).toMatchObject({ connected: true, transport: links.agent, errors: 0 });
    expect(health?.lastSeen).not.toBeNull();
    expect(await h.metrics.render()).toContain('device_events_total{device="scanner-front",type="scan"} 2');
  });

  it(
    "reconnects after the port disappears and comes back on the same path, and the next scan arrives",
    async () => {
      const { pty, h, links } = await setUp();
      let device = await openDeviceEnd(links.device);
      await writeTo(device, "BEFORE\r");
      await h.next((e) => e.type === "scan" && e.value === "BEFORE", "scan before unplug");

      await closePort(device);
      await pty.close(); // unplug: both ends vanish
      // serialport reports the hang-up as soon as the agent's worker runs; the long bound is for a CI
      // machine whose two cores are busy with broker clusters and browsers at that moment
      const down = await h.health("scanner-front", (x) => !x.connected, "scanner disconnected", 15_000);
      expect(down.lastError).not.toBeNull();

      const again = await ptyPair(links); // replug on the same link path
      cleanup.push(() => again.close());
      await h.health("scanner-front", (x) => x.connected, "scanner reconnected", 15_000);
      device = await openDeviceEnd(links.device);
      cleanup.push(() => closePort(device));
      await writeTo(device, "AFTER\r");
      const after = await h.next((e) => e.type === "scan", "scan after replug");
      expect(after).toMatchObject({ value: "AFTER", deviceId: "scanner-front" });
      expect(await h.metrics.render()).toMatch(/device_reconnects_total\{device="scanner-front"\} [1-9]/);
    },
    deadline(45_000),
  );

  it("reports a scanner that is not plugged in and picks it up when it appears", async () => {
    const links = linkPaths("absent");
    const h = await startHub(station(links.agent), await testProfiles({ "serial-scanner-cr": FAST }));
    cleanup.push(() => h.stop());
    const absent = await h.health("scanner-front", (x) => x.lastError !== null, "open failure reported");
    expect(absent.connected).toBe(false);

    const pty = await ptyPair(links);
    cleanup.push(() => pty.close());
    await h.health("scanner-front", (x) => x.connected, "scanner found");
    const device = await openDeviceEnd(links.device);
    cleanup.push(() => closePort(device));
    await writeTo(device, "LATE\r");
    await expect(h.next((e) => e.type === "scan", "late scan")).resolves.toMatchObject({ value: "LATE" });
  });
});
