/**
 * HID scanners from recorded reports through the adapter's backend seam (/dev/uhid is absent here, so
 * no real virtual device [SRC 79]): a Honeywell HID POS message over several reports [SRC 11], a
 * keyboard-wedge scan [SRC 17], and an unplug in the middle of a scan: error, back off, enumerate
 * again, reopen under the new path, init feature report again, and the next scan is whole.
 */
import { afterEach, describe, expect, it } from "vitest";
import { HidPosDecoder } from "../../../../src/devices/drivers/hid-pos/hid-pos.codec.js";
import { hidPosLayout } from "../../../../src/devices/drivers/hid-pos/hid-pos.profile.js";
import type { ScannerProfile } from "../../../../src/devices/profiles/firmware-profile.schema.js";
import { FakeHidScanner } from "../../../support/devices/fake-hid.js";
import { FAST, startHub, testProfiles } from "../../../support/devices/harness.js";
import { hexFixture } from "../../../support/devices/streams.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const revinf = hexFixture("honeywell-revinf.hidpos.hex");

/** The first message of the fixture as decoded in one piece, without any unplug. */
async function wholeMessage(): Promise<string> {
  const profile = (await testProfiles()).get("honeywell-hidpos") as ScannerProfile;
  const decoder = new HidPosDecoder(hidPosLayout(profile));
  const first = revinf.flatMap((r) => decoder.push(r)).find((e) => e.type === "scan");
  return first?.type === "scan" ? first.text : "";
}
const HONEYWELL = { vendorId: 0x0c2e, productId: 0x0b61, usagePage: 140, usage: 2, interface: 0 };

async function setUp(profile: string, fake: FakeHidScanner, hid: Record<string, unknown>) {
  const profiles = await testProfiles({ [profile]: FAST });
  const h = await startHub(
    {
      station: { seats: ["back"], bins: [{ id: "1" }] },
      devices: [{ id: "scanner-back", kind: "scanner", profile, seat: "back", transport: { hid } }],
    },
    profiles,
    { hid: fake.backend },
  );
  cleanup.push(() => h.stop());
  await h.health("scanner-back", (x) => x.connected, "scanner open");
  return h;
}

describe("HID scanners from recorded reports", () => {
  it("reassembles a HID POS message, on the HID POS interface, after the init feature report", async () => {
    const fake = new FakeHidScanner(HONEYWELL);
    const h = await setUp("honeywell-hidpos", fake, { vendorId: "0x0c2e", usagePage: 140, usage: 2 });
    expect(fake.opened).toEqual(["/dev/hidraw3"]);
    expect(fake.features).toEqual([[0xfe, 0x01]]); // output redirection to HID POS [SRC 9]
    expect(fake.drivers).toEqual(["hidraw"]);

    void fake.send(revinf);
    const scan = await h.next((e) => e.type === "scan", "REVINF answer");
    expect(scan).toMatchObject({ deviceId: "scanner-back" });
    expect(h.seatOf(scan.deviceId)).toBe("back");
    expect(scan.type === "scan" && scan.value.startsWith("Product Name: Voyager 1602g\r\n")).toBe(true);
    await h.next((e) => e.type === "scan", "the ]Z6 report");
    expect(h.hub.health()[0]).toMatchObject({ transport: "hid 0c2e:*", connected: true, errors: 0 });
  });

  it("decodes a keyboard-wedge scanner's boot reports with the libusb driver of its profile", async () => {
    const fake = new FakeHidScanner({ vendorId: 0x05fe, productId: 0x1010, interface: 0 });
    const h = await setUp("generic-wedge-us", fake, { vendorId: 0x05fe, productId: 0x1010, interface: 0 });
    expect(fake.drivers).toEqual(["libusb"]);
    void fake.send(hexFixture("wedge-6957842208856.hex"));
    await expect(h.next((e) => e.type === "scan", "wedge scan")).resolves.toMatchObject({
      value: "6957842208856",
    });
  });

  it("reopens by enumeration after an unplug mid-scan and loses no scan sent after the replug", async () => {
    const fake = new FakeHidScanner(HONEYWELL);
    const h = await setUp("honeywell-hidpos", fake, {
      vendorId: "0x0c2e",
      productId: "0x0b61",
      usagePage: 140,
    });
    await fake.send(revinf.slice(0, 3)); // half a message, then the cable is pulled
    const enumerations = fake.enumerations;
    fake.unplug();
    const down = await h.health("scanner-back", (x) => !x.connected, "unplug seen");
    expect(down.lastError).toBe("could not read from HID device");

    const later = fake.send(revinf); // scanned while unplugged: waits in the scanner
    fake.replug();
    await h.health("scanner-back", (x) => x.connected, "reopened");
    expect(fake.enumerations).toBeGreaterThan(enumerations);
    expect(fake.opened).toEqual(["/dev/hidraw3", "/dev/hidraw5"]); // the new node, found again
    expect(fake.features).toEqual([
      [0xfe, 0x01],
      [0xfe, 0x01],
    ]);
    await later;
    await h.next((e) => e.type === "scan", "scan after replug");
    await h.next((e) => e.type === "scan", "its ]Z6 answer");
    const values = h.events.flatMap((e) => (e.type === "scan" ? [e.value] : []));
    expect(values).toHaveLength(2); // the half cut by the unplug was not emitted
    expect(values[0]?.startsWith("Product Name: Voyager 1602g")).toBe(true);
    expect(values[0]).toBe(await wholeMessage());
    expect(h.hub.health()[0]?.errors).toBeGreaterThanOrEqual(2); // the disconnect and the cut scan
  });
});
