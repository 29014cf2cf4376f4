/**
 * Every shipped firmware profile (firmware-profiles/) can open its device under the shipped unit
 * (systemd/pps-edge.service) and the shipped udev rules (packaging/99-pps-edge.rules): its transport's
 * device nodes are in the unit's DeviceAllow= (DevicePolicy=closed refuses the rest), the socket families
 * it needs in RestrictAddressFamilies=, and a udev line gives its nodes to a group the service user is in.
 * A static check: this machine runs no systemd as PID 1, so the sandbox itself is not started here
 * (docs/operations.md#devices-under-the-unit).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const unit = readFileSync(join(ROOT, "systemd/pps-edge.service"), "utf8");
const rules = readFileSync(join(ROOT, "packaging/99-pps-edge.rules"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));
const sysusers = readFileSync(join(ROOT, "packaging/pps-edge.sysusers"), "utf8");

const values = (key: string) =>
  unit
    .split("\n")
    .filter((l) => l.startsWith(`${key}=`))
    .flatMap((l) => l.slice(key.length + 1).split(/\s+/));
const deviceAllow = unit
  .split("\n")
  .filter((l) => l.startsWith("DeviceAllow="))
  .map((l) => l.slice("DeviceAllow=".length).split(/\s+/)[0]);

interface Profile {
  profileId: string;
  match?: { usb?: { vendorId?: string | null; productId?: string | null } };
  transport: { type: string; driver?: string };
}
const profiles: Profile[] = readdirSync(join(ROOT, "firmware-profiles"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(ROOT, "firmware-profiles", f), "utf8")) as Profile);

/** What a transport needs of the sandbox: device classes (/proc/devices names), socket families, udev. */
function needs(p: Profile): { devices: string[]; families: string[]; udev?: RegExp; group?: string } {
  const hex = (id?: string | null) => (id ? id.replace(/^0x/, "").toLowerCase() : undefined);
  const vendor = hex(p.match?.usb?.vendorId);
  const product = hex(p.match?.usb?.productId);
  const attr = (k: string, v?: string) => (v ? `.*ATTRS\\{${k}\\}=="${v}"` : "");
  switch (`${p.transport.type}/${p.transport.driver ?? ""}`) {
    case "tcp/":
      return { devices: [], families: ["AF_INET", "AF_INET6"] };
    case "serial/":
      // USB adaptors (ttyUSB), CDC-ACM devices (ttyACM) and on-board ports (ttyS); Debian gives them dialout
      return {
        devices: ["char-ttyS", "char-ttyUSB", "char-ttyACM"],
        families: [],
        udev: /^SUBSYSTEM=="tty".*GROUP="dialout"/,
        group: "dialout",
      };
    case "hid/hidraw":
      return {
        devices: ["char-hidraw"],
        families: [],
        udev: new RegExp(`^KERNEL=="hidraw\\*"${attr("idVendor", vendor ?? "[0-9a-f]{4}")}.*GROUP="plugdev"`),
        group: "plugdev",
      };
    case "hid/libusb":
      // libusb opens /dev/bus/usb/BBB/DDD (usb_device) and watches udev's events on a netlink socket
      return {
        devices: ["char-usb_device"],
        families: ["AF_NETLINK"],
        udev: new RegExp(
          `^SUBSYSTEM=="usb"${attr("idVendor", vendor)}${attr("idProduct", product)}.*GROUP="plugdev"`,
        ),
        group: "plugdev",
      };
    default:
      throw new Error(
        `profile ${p.profileId}: transport ${JSON.stringify(p.transport)} has no sandbox rule here`,
      );
  }
}

describe("every shipped profile under the shipped unit and udev rules", () => {
  it("covers the transports of all shipped profiles (tcp, serial, hidraw and libusb among them)", () => {
    const kinds = new Set(profiles.map((p) => `${p.transport.type}/${p.transport.driver ?? ""}`));
    expect([...kinds].sort()).toEqual(["hid/hidraw", "hid/libusb", "serial/", "tcp/"]);
    expect(values("DevicePolicy")).toEqual(["closed"]);
  });

  for (const p of profiles) {
    it(`${p.profileId} (${p.transport.type}${p.transport.driver ? `, ${p.transport.driver}` : ""})`, () => {
      const n = needs(p);
      for (const d of n.devices) expect([d, deviceAllow.includes(d)]).toEqual([d, true]);
      for (const f of n.families) {
        expect([f, values("RestrictAddressFamilies").includes(f)]).toEqual([f, true]);
      }
      if (n.udev)
        expect(
          rules.filter((l) => n.udev?.test(l)),
          String(n.udev),
        ).not.toEqual([]);
      if (n.group) {
        expect(values("SupplementaryGroups")).toContain(n.group);
        expect(sysusers).toMatch(new RegExp(`^m pps-edge ${n.group}$`, "m"));
      }
    });
  }

  it("fails for a libusb profile when the unit lacks usb_device (the check can fail)", () => {
    const wedge = profiles.find((p) => p.transport.driver === "libusb") as Profile;
    const without = deviceAllow.filter((d) => d !== "char-usb_device");
    expect(needs(wedge).devices.every((d) => without.includes(d))).toBe(false);
  });
});
