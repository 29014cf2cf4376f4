/**
 * Bin sensors and inputs on Modbus RTU: a light curtain (Delta AS-BA beam registers [SRC 40]) or a
 * discrete-input module (FC02 [ASSUMPTION §2.5]). Modbus devices never speak unasked [SRC 39], so the
 * adapter polls each point its channels use every `timing.pollIntervalMs`, debounces each channel and
 * turns edges into events: presence channels give `sensor` events, confirm/shortage inputs give
 * `button` events on press (address = channel name). A unit that stops answering is reported
 * disconnected and polled on; its answer brings it back.
 */

import { errorText } from "../../link/byte-link.js";
import { type AdapterContext, type DeviceAdapter, FALLBACK_TIMING } from "../adapter.types.js";
import { ModbusTimeoutError } from "../modbus-rtu/modbus-bus.js";
import { modbusTransaction } from "../modbus-rtu/modbus-device.js";
import type { LineMember, ModbusLine } from "../modbus-rtu/modbus-line.js";
import { Debouncer } from "./debouncer.js";
import { readChannelBit } from "./modbus-points.js";
import {
  type ModbusSensorProfile,
  modbusSensorCodec,
  type PointRead,
  type SensorChannel,
} from "./modbus-sensor.profile.js";

/** A read of one poll, each of its channels with its own debouncer. */
interface WatchedRead extends Omit<PointRead, "channels"> {
  channels: Array<{ channel: SensorChannel; debounce: Debouncer }>;
}

/**
 * Presence and pause channels give `sensor` events (a pause input is a level: both edges count,
 * docs/station.md#pausing-a-seat); confirm/shortage inputs give `button` events when pressed.
 */
function emitEdge(ctx: AdapterContext, channel: SensorChannel, active: boolean, at: number): void {
  const role = channel.role ?? "presence";
  if (role === "presence" || role === "pause")
    ctx.emit({ type: "sensor", deviceId: ctx.deviceId, channel: channel.name, active, at });
  else if (active)
    ctx.emit({ type: "button", deviceId: ctx.deviceId, address: channel.name, button: role, at });
}

/** The channels of one answer: each bit debounced, each settled change an event. */
function readChannels(ctx: AdapterContext, r: WatchedRead, data: Uint8Array, at: number): void {
  for (const { channel, debounce } of r.channels) {
    const bit = readChannelBit(r.type, data, r.count, channel.bit);
    if (bit === undefined) {
      ctx.status.error(`channel ${channel.name}: bit ${channel.bit} not in the answer`);
      continue;
    }
    const first = debounce.level === null;
    const edge = debounce.update(bit === channel.activeWhen, at);
    if (edge !== null) emitEdge(ctx, channel, edge, at);
    // a pause input's first reading counts too: an e-stop pressed before the start holds the seats, and
    // one released while the agent was stopped lets go of them
    else if (first && channel.role === "pause") emitEdge(ctx, channel, debounce.level === true, at);
  }
}

export function createModbusSensorAdapter(
  ctx: AdapterContext,
  profile: ModbusSensorProfile,
  line: ModbusLine,
  unitId?: number,
): DeviceAdapter {
  const transaction = modbusTransaction(profile);
  const interval = profile.timing?.pollIntervalMs ?? FALLBACK_TIMING.pollIntervalMs;
  const reads: WatchedRead[] = modbusSensorCodec(profile)
    .reads(unitId)
    .map((r) => ({
      ...r,
      channels: r.channels.map((channel) => ({ channel, debounce: new Debouncer(channel.debounceMs ?? 0) })),
    }));

  let running = false;
  let online = false;
  let timer: NodeJS.Timeout | undefined;
  let cycle: Promise<void> | undefined;

  const offline = (reason: string) => {
    online = false;
    ctx.status.disconnected(reason);
  };

  async function pollOnce(): Promise<void> {
    for (const r of reads) {
      try {
        const answer = await line.bus.request(r.frame, transaction);
        if (!online) {
          online = true;
          ctx.status.connected();
        }
        ctx.status.seen();
        if (answer.kind === "read") readChannels(ctx, r, answer.data, ctx.now());
      } catch (e) {
        if (e instanceof ModbusTimeoutError) offline(e.message);
        else if (line.isOpen) ctx.status.error(errorText(e));
        return;
      }
    }
  }
  function schedule(delay: number): void {
    if (!running || timer || cycle || !line.isOpen) return;
    timer = setTimeout(() => {
      timer = undefined;
      cycle = pollOnce().finally(() => {
        cycle = undefined;
        schedule(interval);
      });
    }, delay);
  }

  const member: LineMember = {
    opened: () => schedule(0),
    down: (reason) => offline(reason),
    retrying: () => ctx.status.reconnecting(),
    noise: (reason) => ctx.status.error(`line ${line.path}: ${reason}`),
  };

  return {
    start() {
      running = true;
      line.join(member);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await cycle;
      await line.leave(member);
    },
  };
}
