/**
 * The seam between the HID scanner adapter and node-hid: enumerate, open by path. node-hid is loaded
 * only when a HID device is configured (its native binding needs libudev and libusb at runtime,
 * pitfall 12), and the driver is chosen before its first use, as node-hid requires [SRC 1]. Tests put a
 * fake behind the same two calls that replays recorded reports and unplugs on demand (/dev/uhid, which
 * a real virtual device would need, is absent in containers [SRC 79]).
 */
export interface HidDeviceInfo {
  path?: string | undefined;
  vendorId: number;
  productId: number;
  usagePage?: number | undefined;
  usage?: number | undefined;
  interface?: number | undefined;
  serialNumber?: string | undefined;
}

export interface HidHandle {
  on(event: "data", fn: (report: Buffer) => void): unknown;
  on(event: "error", fn: (err: Error) => void): unknown;
  removeAllListeners(): unknown;
  close(): Promise<void> | void;
  /** First byte = report id [SRC 1]. */
  sendFeatureReport(data: number[] | Buffer): Promise<number> | number;
}

export interface HidBackend {
  /** Enumerates anew on every call: a list kept from before an unplug is stale [SRC 15]. */
  devices(): Promise<HidDeviceInfo[]>;
  open(path: string): Promise<HidHandle>;
}

/** What the station file says to look for; unset fields match anything. */
export interface HidMatch {
  vendorId: number;
  productId?: number | undefined;
  usagePage?: number | undefined;
  usage?: number | undefined;
  interface?: number | undefined;
  serialNumber?: string | undefined;
}

/**
 * A scanner can expose several interfaces and only one carries the scans, so usage page and usage
 * (0x8C/0x02 for HID POS) pick the interface [SRC 30x, 9].
 */
export function matchesHid(info: HidDeviceInfo, m: HidMatch): boolean {
  const same = <T>(want: T | undefined, have: T | undefined) => want === undefined || want === have;
  return (
    info.vendorId === m.vendorId &&
    same(m.productId, info.productId) &&
    same(m.usagePage, info.usagePage) &&
    same(m.usage, info.usage) &&
    same(m.interface, info.interface) &&
    same(m.serialNumber, info.serialNumber) &&
    info.path !== undefined
  );
}

let chosenDriver: "hidraw" | "libusb" | undefined;

/** node-hid with the profile's driver; the first HID device started decides it for the process. */
export function nodeHidBackend(driver: "hidraw" | "libusb"): HidBackend {
  const load = async () => {
    const hid = await import("node-hid");
    if (chosenDriver === undefined) {
      hid.setDriverType(driver);
      chosenDriver = driver;
    } else if (chosenDriver !== driver) {
      throw new Error(`node-hid already uses the ${chosenDriver} driver; one driver per process [SRC 1]`);
    }
    return hid;
  };
  return {
    devices: async () => (await load()).devicesAsync(),
    open: async (path) => (await load()).HIDAsync.open(path),
  };
}
