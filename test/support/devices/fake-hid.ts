/**
 * A HID scanner behind the adapter's backend seam, behaving as node-hid does with a real one
 * (hardware.md §1.5, §7): enumeration lists every interface (a keyboard interface beside the HID POS
 * one), reports are delivered only while a device is open with a data listener, an unplug is an
 * `error` on the open device and an empty enumeration, and a replug comes back under a new hidraw path.
 * Reports the scanner produces while unplugged wait in its buffer and go out once it is reopened.
 */
import { EventEmitter } from "node:events";
import type { HidBackend, HidDeviceInfo, HidHandle } from "../../../src/devices/link/hid-backend.js";

class FakeHandle extends EventEmitter implements HidHandle {
  closed = false;
  constructor(
    readonly path: string,
    private readonly features: number[][],
  ) {
    super();
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  async sendFeatureReport(data: number[] | Buffer): Promise<number> {
    this.features.push(Array.from(data));
    return data.length;
  }
}

export class FakeHidScanner {
  plugged = true;
  private hidraw = 3;
  private handle: FakeHandle | undefined;
  private readonly buffered: Array<{ report: Buffer; delivered: () => void }> = [];
  readonly features: number[][] = [];
  readonly opened: string[] = [];
  enumerations = 0;
  drivers: string[] = [];

  constructor(private readonly info: Omit<HidDeviceInfo, "path">) {}

  get path(): string {
    return `/dev/hidraw${this.hidraw}`;
  }

  /** The factory the hub takes (`backends.hid`). */
  backend = (driver: "hidraw" | "libusb"): HidBackend => {
    this.drivers.push(driver);
    return {
      devices: async () => {
        this.enumerations++;
        if (!this.plugged) return [];
        // the keyboard interface of the same scanner comes first: matching must skip it [SRC 30x]
        const keyboard = {
          ...this.info,
          usagePage: 1,
          usage: 6,
          interface: 1,
          path: `/dev/hidraw${this.hidraw + 1}`,
        };
        return [keyboard, { ...this.info, path: this.path }];
      },
      open: async (path) => {
        if (!this.plugged || path !== this.path) throw new Error(`cannot open ${path}`);
        const h = new FakeHandle(path, this.features);
        this.opened.push(path);
        this.handle = h;
        setImmediate(() => this.flush());
        return h;
      },
    };
  };

  /** The scanner sends reports (delivered asynchronously, as node-hid reads them); resolves once read. */
  send(reports: readonly Uint8Array[]): Promise<void> {
    const all = reports.map(
      (r) => new Promise<void>((delivered) => this.buffered.push({ report: Buffer.from(r), delivered })),
    );
    setImmediate(() => this.flush());
    return Promise.all(all).then(() => undefined);
  }

  unplug(): void {
    this.plugged = false;
    const h = this.handle;
    this.handle = undefined;
    h?.emit("error", new Error("could not read from HID device"));
  }

  /** Plugs the scanner back in; the kernel gives it a new hidraw node. */
  replug(): void {
    this.hidraw += 2;
    this.plugged = true;
  }

  private flush(): void {
    const h = this.handle;
    if (!h || h.closed || h.listenerCount("data") === 0) return;
    for (const { report, delivered } of this.buffered.splice(0)) {
      h.emit("data", report);
      delivered();
    }
  }
}
