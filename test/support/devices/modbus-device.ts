/**
 * Modbus RTU slaves played by the test on the device end of a line: requests are cut with the codec's
 * request parser, answered per unit by a handler (null = stay silent, as a slave does on a bad CRC or
 * when it is absent), with a correct CRC. It also checks the master's manners: a request that arrives
 * while the previous one is still unanswered is recorded as an overlap.
 */
import { withCrc } from "../../../src/devices/codecs/crc16-modbus.js";
import type { ModbusRequest } from "../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import { ModbusRtuParser } from "../../../src/devices/drivers/modbus-rtu/modbus-rtu.parser.js";
import { deadline } from "../deadline.js";

export type SlaveHandler = (req: ModbusRequest) => Uint8Array | null;

export interface Served {
  unit: number;
  fc: number;
  address: number;
  raw: Uint8Array;
}

export interface EmulatedBus {
  served: Served[];
  overlaps: number;
  /** Resolves once `n` more requests (any unit) were received. */
  requests(n: number, timeoutMs?: number): Promise<void>;
}

export const readReply = (unit: number, fc: number, data: number[]) =>
  withCrc(Uint8Array.from([unit, fc, data.length, ...data]));

/** FC 05/06/0F/10 reply: unit, fc, address, value or quantity, as the request says [§3.3]. */
export const writeReply = (req: ModbusRequest) => {
  const v = req.kind === "write-single" ? req.value : req.kind === "write-multiple" ? req.count : 0;
  return withCrc(Uint8Array.of(req.unit, req.fc, req.address >> 8, req.address & 0xff, v >> 8, v & 0xff));
};

export function emulateBus(
  port: NodeJS.EventEmitter & { write(b: Buffer): unknown },
  slaves: Record<number, SlaveHandler>,
  replyDelayMs = 0,
): EmulatedBus {
  const parser = new ModbusRtuParser({ direction: "request", interFrameGapMs: null });
  const waiters: Array<{ until: number; done: () => void }> = [];
  let busy = false;
  const bus: EmulatedBus = {
    served: [],
    overlaps: 0,
    requests(n, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${n} Modbus requests`)),
          deadline(timeoutMs),
        );
        waiters.push({
          until: bus.served.length + n,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
  port.on("data", (chunk: Buffer) => {
    for (const ev of parser.push(new Uint8Array(chunk))) {
      if (ev.type !== "frame") continue;
      if (busy) bus.overlaps++;
      const req = ev.message;
      bus.served.push({ unit: req.unit, fc: req.fc, address: req.address, raw: ev.raw });
      for (const w of waiters.splice(0)) {
        if (bus.served.length >= w.until) w.done();
        else waiters.push(w);
      }
      const reply = slaves[req.unit]?.(req) ?? null;
      if (reply === null) continue;
      busy = true;
      const send = () => {
        busy = false;
        port.write(Buffer.from(reply));
      };
      if (replyDelayMs > 0) setTimeout(send, replyDelayMs);
      else send();
    }
  });
  return bus;
}
