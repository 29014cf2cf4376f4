/**
 * Simulated devices with the same interfaces as the real ones (docs/architecture.md#the-station-model: the default when no
 * hardware is configured). The simulator handle of the hub injects scans, button presses and sensor
 * changes here and reads back the light commands received. With a real profile (a station file that
 * says `transport: sim`), scans are interpreted and channels checked as that profile says.
 */
import { GS } from "../../codecs/gs1.js";
import { scanEvent, scanInterpretOptions } from "../../codecs/scan-event.js";
import type { ScanInterpretOptions } from "../../codecs/scan-interpret.js";
import type { LightCommand } from "../../hub.types.js";
import type { AnyKindProfile } from "../../profiles/profile-kinds.js";
import type { AdapterContext, DeviceAdapter } from "../adapter.types.js";

/** Scans are interpreted as the device's scanner profile says, else as plain data with GS. */
export function simInterpretOptions(profile: AnyKindProfile | null): ScanInterpretOptions {
  return profile?.kind === "scanner"
    ? scanInterpretOptions(profile)
    : { aimTransmitted: false, groupSeparator: GS };
}

export class SimScanner implements DeviceAdapter {
  constructor(
    private readonly ctx: AdapterContext,
    private readonly profile: AnyKindProfile | null,
  ) {}

  start(): void {
    this.ctx.status.connected();
  }

  async stop(): Promise<void> {}

  scan(text: string): void {
    this.ctx.status.seen();
    const opts = simInterpretOptions(this.profile);
    this.ctx.emit(scanEvent(this.ctx.deviceId, text, opts, this.ctx.now()));
  }
}

export class SimLights implements DeviceAdapter {
  /** Last command per address, in the order addresses were first lit. */
  readonly current = new Map<string, LightCommand>();

  constructor(private readonly ctx: AdapterContext) {}

  start(): void {
    this.ctx.status.connected();
  }

  async stop(): Promise<void> {}

  async light(cmd: LightCommand): Promise<void> {
    this.current.set(cmd.address, { ...cmd });
  }

  press(address: string, button: "confirm" | "shortage"): void {
    this.ctx.status.seen();
    this.ctx.emit({ type: "button", deviceId: this.ctx.deviceId, address, button, at: this.ctx.now() });
  }
}

export class SimSensors implements DeviceAdapter {
  private readonly levels = new Map<string, boolean>();

  constructor(
    private readonly ctx: AdapterContext,
    private readonly profile: AnyKindProfile | null,
  ) {}

  start(): void {
    this.ctx.status.connected();
  }

  async stop(): Promise<void> {}

  /** Sets a channel; an event follows only when the level changed, as with a real polled input. */
  set(channel: string, active: boolean): void {
    let role: "presence" | "confirm" | "shortage" | "pause" = "presence";
    if (this.profile?.kind === "bin-sensor") {
      const ch = this.profile.sensor.channels.find((c) => c.name === channel);
      if (!ch) throw new RangeError(`profile ${this.profile.profileId} has no channel ${channel}`);
      role = ch.role ?? "presence";
    }
    if ((this.levels.get(channel) ?? false) === active) return;
    this.levels.set(channel, active);
    this.ctx.status.seen();
    const at = this.ctx.now();
    // a pause input is a level, like presence: both edges count (docs/station.md#pausing-a-seat)
    if (role === "presence" || role === "pause")
      this.ctx.emit({ type: "sensor", deviceId: this.ctx.deviceId, channel, active, at });
    else if (active)
      this.ctx.emit({ type: "button", deviceId: this.ctx.deviceId, address: channel, button: role, at });
  }
}
