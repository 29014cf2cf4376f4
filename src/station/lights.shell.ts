/**
 * Sends the lights (thin shell over `DeviceHub.light`): the desired state of every bin and slot light
 * comes from bin-lights.ts; only differences are written, so a refresh after every change is cheap.
 * A refused scan flashes the error signal on one light for `errorSignalMs`, then the light returns
 * to what it should show (unless a newer change already replaced it).
 */
import type { Logger } from "pino";
import type { DeviceHub, LightCommand } from "../devices/hub.types.js";
import { type Desired, OFF, sameLight } from "./bin-lights.js";
import type { LightRef } from "./topology.js";

const keyOf = (l: LightRef) => `${l.device}\u0000${l.address}`;
const written = () => true;

export function createLightsShell(deps: { hub: DeviceHub; errorSignalMs: number; log: Logger }) {
  const sent = new Map<string, { light: LightRef; desired: Desired }>();
  const errors = new Map<string, NodeJS.Timeout>();
  let commands = 0;
  let last: Promise<boolean> = Promise.resolve(true);

  function send(cmd: LightCommand, light: LightRef, failure: string): void {
    commands++;
    last = deps.hub.light(cmd).then(written, (err: unknown) => {
      deps.log.warn({ err, light }, failure);
      return false;
    });
  }

  function write(light: LightRef, desired: Desired): void {
    sent.set(keyOf(light), { light, desired });
    const cmd =
      desired.mode === "off"
        ? { deviceId: light.device, address: light.address, mode: "off" as const }
        : {
            deviceId: light.device,
            address: light.address,
            mode: "show" as const,
            color: desired.color,
            ...(desired.quantity !== undefined ? { quantity: desired.quantity } : {}),
            ...(desired.blink ? { blink: true } : {}),
          };
    send(cmd, light, "light command failed");
  }

  return {
    /** Makes one light show `desired`, writing only when that differs from what it was last told. */
    set(light: LightRef, desired: Desired): void {
      const k = keyOf(light);
      const last = sent.get(k)?.desired;
      const timer = errors.get(k);
      // while an error signal shows, the same state is restored by its timer
      if (sameLight(last, desired)) return;
      if (timer) {
        clearTimeout(timer);
        errors.delete(k);
      }
      write(light, desired);
    },

    /** The error signal (a refused scan): red, or the buzzer where the profile has one (the adapter's choice). */
    signal(light: LightRef): void {
      const k = keyOf(light);
      const old = errors.get(k);
      if (old) clearTimeout(old);
      send({ deviceId: light.device, address: light.address, mode: "error" }, light, "error signal failed");
      const timer = setTimeout(() => {
        errors.delete(k);
        write(light, sent.get(k)?.desired ?? OFF);
      }, deps.errorSignalMs);
      timer.unref();
      errors.set(k, timer);
    },

    /** Light commands sent so far: a step that changed it lit something (the scan → light timing). */
    sent: (): number => commands,

    /** Resolves once the last command sent is written: true, or false when it failed. */
    written: (): Promise<boolean> => last,

    /** Lights last told to show something (to turn off those no longer wanted). */
    lit(): LightRef[] {
      return [...sent.values()].filter((s) => s.desired.mode !== "off").map((s) => s.light);
    },

    stop(): void {
      for (const t of errors.values()) clearTimeout(t);
      errors.clear();
      sent.clear();
    },
  };
}

export type LightsShell = ReturnType<typeof createLightsShell>;
