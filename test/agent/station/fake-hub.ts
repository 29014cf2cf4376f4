/**
 * A device hub that behaves like the devices on a desk: it records every light command, keeps what
 * each module shows, and emits scans, button presses and beams on demand. Like a SorTexx unit, a
 * button only answers on a module that is lit (hardware.md §2.3: the confirmation is the second
 * answer to a lit LED).
 */
import type { DeviceEvent, DeviceHealth, DeviceHub, LightCommand } from "../../../src/devices/hub.types.js";

export class FakeHub implements DeviceHub {
  readonly sent: LightCommand[] = [];
  private readonly shown = new Map<string, LightCommand>();
  private readonly handlers = new Map<string, (e: DeviceEvent) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  onEvent(owner: string, handler: (e: DeviceEvent) => void): void {
    this.handlers.set(owner, handler);
  }

  off(owner: string): void {
    this.handlers.delete(owner);
  }

  async light(command: LightCommand): Promise<void> {
    this.sent.push(command);
    if (command.mode !== "error") this.shown.set(`${command.deviceId}/${command.address}`, command);
  }

  health(): DeviceHealth[] {
    return [];
  }

  /** What a module shows now, in short: `off`, `green 3`, `green blink`. */
  showing(address: string, deviceId = "ptl"): string {
    const c = this.shown.get(`${deviceId}/${address}`);
    if (!c || c.mode === "off") return "off";
    return [c.color, c.quantity, c.blink ? "blink" : undefined].filter((x) => x !== undefined).join(" ");
  }

  /** Light commands sent since the mark, in short (`show 2 green 3`, `off 2`, `error 1`). */
  since(mark: number): string[] {
    return this.sent.slice(mark).map((c) => {
      if (c.mode !== "show") return `${c.mode} ${c.address}`;
      return [`show ${c.address}`, c.color, c.quantity, c.blink ? "blink" : undefined]
        .filter((x) => x !== undefined)
        .join(" ");
    });
  }

  emit(e: DeviceEvent): void {
    for (const h of this.handlers.values()) h(e);
  }

  /** A scan from a scanner; the engine's topology tells its seat (`scanner-front`: the front seat). */
  scan(value: string, deviceId = "scanner-front"): void {
    this.emit({ type: "scan", deviceId, value, at: this.now() });
  }

  /** A press on a lit module; an unlit module has nothing to acknowledge and stays silent. */
  press(address: string, button: "confirm" | "shortage" = "confirm", deviceId = "ptl"): boolean {
    if (this.showing(address, deviceId) === "off") return false;
    this.emit({ type: "button", deviceId, address, button, at: this.now() });
    return true;
  }

  beam(channel: string, active = true, deviceId = "curtain"): void {
    this.emit({ type: "sensor", deviceId, channel, active, at: this.now() });
  }
}
