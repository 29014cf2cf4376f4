/**
 * A SorTexx-style light controller over a real pseudo-terminal: the test plays the control unit,
 * answering each 11-byte command with its echo and result [SRC 33]. `C` then a later `0` for the same
 * frame is the operator's confirmation; `D` (busy) makes the adapter send the command again.
 */
import type { SerialPort } from "serialport";
import { afterEach, describe, expect, it } from "vitest";
import { isDeviceUnavailable } from "../../../src/devices/drivers/adapter.types.js";
import { FAST, readUntil, startHub, testProfiles } from "../../support/devices/harness.js";
import { closePort, linkPaths, openDeviceEnd, ptyPair, writeTo } from "../../support/devices/pty.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const frameOf = (bytes: Buffer, n = 1): string[] | undefined => {
  const frames = bytes.toString("latin1").match(/<\d{6}...>/g) ?? [];
  return frames.length >= n ? frames : undefined;
};
const withResult = (frame: string, result: string) => `${frame.slice(0, 9)}${result}>`;

async function setUp() {
  const links = linkPaths("sortexx");
  const pty = await ptyPair(links);
  cleanup.push(() => pty.close());
  const profiles = await testProfiles({ "sortexx-ascii": { ...FAST, responseTimeoutMs: 150, retries: 2 } });
  const h = await startHub(
    {
      station: { seats: ["front"], bins: [{ id: "7", light: { device: "ptl", address: "001005" } }] },
      devices: [
        { id: "ptl", kind: "ptl-controller", profile: "sortexx-ascii", transport: { serial: links.agent } },
      ],
    },
    profiles,
  );
  cleanup.push(() => h.stop());
  await h.health("ptl", (x) => x.connected, "controller connected");
  const device: SerialPort = await openDeviceEnd(links.device);
  cleanup.push(() => closePort(device));
  return { h, device, pty, links };
}

describe("SorTexx controller over a pseudo-terminal", () => {
  it("lights a compartment, and the second answer 0 after C is the confirm button of that bin", async () => {
    const { h, device } = await setUp();
    const written = readUntil(device, (b) => frameOf(b), "LED command");
    await h.hub.light({ deviceId: "ptl", address: "001005", mode: "show", color: "green", quantity: 3 });
    const [frame] = (await written) as string[];
    expect(frame).toBe("<001005210>"); // cumulative on, green, shelf 1 compartment 5

    await writeTo(device, withResult(frame as string, "C")); // LED on, waiting for the operator
    await writeTo(device, "\x00garbage");
    await writeTo(device, frame as string); // the operator pressed: same frame, result 0
    const press = await h.next((e) => e.type === "button", "confirm");
    expect(press).toMatchObject({ type: "button", deviceId: "ptl", address: "001005", button: "confirm" });
    expect(h.binOf(press)).toBe("7");
    expect(h.events.filter((e) => e.type === "button")).toHaveLength(1);
  });

  it("maps error and off to red flashing and cumulative off", async () => {
    const { h, device } = await setUp();
    const two = readUntil(device, (b) => frameOf(b, 2), "two commands");
    await h.hub.light({ deviceId: "ptl", address: "001005", mode: "error" });
    await h.hub.light({ deviceId: "ptl", address: "001005", mode: "off" });
    expect(await two).toEqual(["<001005270>", "<001005300>"]);
  });

  it("sends a command again when the unit answers busy or not at all, up to the profile's retries", async () => {
    const { h, device } = await setUp();
    let sent = 0;
    device.on("data", (b: Buffer) => {
      sent += (b.toString("latin1").match(/</g) ?? []).length;
    });
    const first = readUntil(device, (b) => frameOf(b), "first try");
    await h.hub.light({ deviceId: "ptl", address: "001005", mode: "show" });
    const [frame] = (await first) as string[];
    const resent = readUntil(device, (b) => frameOf(b), "resend after busy");
    await writeTo(device, withResult(frame as string, "D"));
    expect(await resent).toEqual([frame]);
    // no answer at all now: two more tries (retries: 2 counts the busy one), then an error
    const errors = await h.health(
      "ptl",
      (x) => x.lastError?.startsWith("no answer") === true,
      "gave up",
      3000,
    );
    expect(errors.errors).toBeGreaterThan(0);
    expect(sent).toBe(3); // the first try and two more, none after giving up
  });

  it("refuses a light while unplugged and shows it again once the port is back", async () => {
    const { h, device, pty, links } = await setUp();
    await closePort(device);
    await pty.close();
    await h.health("ptl", (x) => !x.connected, "controller gone");
    const err = await h.hub
      .light({ deviceId: "ptl", address: "001005", mode: "show", color: "red" })
      .catch((e: unknown) => e);
    expect(isDeviceUnavailable(err)).toBe(true);

    const again = await ptyPair(links);
    cleanup.push(() => again.close());
    const back = await openDeviceEnd(links.device);
    cleanup.push(() => closePort(back));
    const replayed = readUntil(back, (b) => frameOf(b), "replayed light");
    await h.health("ptl", (x) => x.connected, "controller back");
    expect(await replayed).toEqual(["<001005230>"]);
  });
});
