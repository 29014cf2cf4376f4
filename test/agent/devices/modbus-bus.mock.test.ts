/**
 * Timing of the Modbus master over @serialport/binding-mock (hardware.md §7: ptys do not reproduce
 * timing): response timeout and retries from the profile, one transaction at a time on a line,
 * exceptions not retried, a 2-wire RS-485 echo skipped, a reply split over reads still understood.
 */
import pino from "pino";
import { SerialPortMock } from "serialport";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withCrc } from "../../../src/devices/codecs/crc16-modbus.js";
import {
  ModbusExceptionError,
  ModbusTimeoutError,
} from "../../../src/devices/drivers/modbus-rtu/modbus-bus.js";
import { ModbusLine } from "../../../src/devices/drivers/modbus-rtu/modbus-line.js";
import {
  encodeReadRequest,
  encodeWriteSingleRegister,
} from "../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import { readReply } from "../../support/devices/modbus-device.js";

const PATH = "/dev/ttyMOCK-RS485";
/** The binding instance serialport itself loaded (the package ships CJS and ESM builds; use its one). */
const MockBinding = SerialPortMock.binding;
type MockPortBinding = NonNullable<SerialPortMock["port"]>;
type Reply = (frame: Buffer, n: number) => Uint8Array | null;

let line: ModbusLine | undefined;
beforeEach(() => MockBinding.reset());
afterEach(async () => {
  await line?.leave(member);
  line = undefined;
});
const member = { opened() {}, down() {}, retrying() {}, noise() {} };

/** Opens a line on a mock port whose "device" answers every write with `reply` (split in two reads). */
async function open(reply: Reply, opts: { echo?: boolean } = {}) {
  MockBinding.createPort(PATH, { record: true, echo: opts.echo ?? false });
  let port: SerialPortMock | undefined;
  const writes: Array<{ frame: Buffer; at: number }> = [];
  /** When the last byte of each answer was delivered. */
  const answered: number[] = [];
  line = new ModbusLine({
    settings: { path: PATH, baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 },
    factory: (s) => {
      port = new SerialPortMock({ path: s.path, baudRate: s.baudRate, autoOpen: false });
      return port;
    },
    backoffMs: [10],
    twoWireEcho: opts.echo ?? false,
    interFrameGapMs: null,
    now: Date.now,
    log: pino({ level: "silent" }),
  });
  const opened = new Promise<void>((ok) => {
    line?.join({ ...member, opened: ok });
  });
  await opened;
  const binding = port?.port as MockPortBinding;
  const write = binding.write.bind(binding);
  binding.write = async (buf: Buffer) => {
    await write(buf);
    writes.push({ frame: Buffer.from(buf), at: performance.now() });
    const answer = reply(buf, writes.length);
    if (!answer) return;
    // fragmented on purpose, after the echo (if any) went out
    setTimeout(() => binding.emitData(Buffer.from(answer.subarray(0, 3))), 1);
    setTimeout(() => {
      answered.push(performance.now());
      binding.emitData(Buffer.from(answer.subarray(3)));
    }, 3);
  };
  return { bus: (line as ModbusLine).bus, writes, answered };
}

const READ = encodeReadRequest(1, 3, 0x50, 4);
const DELTA_REPLY = readReply(1, 3, [0x02, 0x3f, 0x02, 0x00, 0x02, 0xc0, 0x02, 0x1f]); // [SRC 40]

describe("Modbus master timing over the mock binding", () => {
  it("waits the response timeout, sends again, and takes the answer to the retry", async () => {
    const { bus, writes } = await open((_f, n) => (n === 2 ? DELTA_REPLY : null));
    const t0 = performance.now();
    const answer = await bus.request(READ, { timeoutMs: 60, retries: 2 });
    expect(answer).toMatchObject({ kind: "read", unit: 1, fc: 3 });
    expect(writes.map((w) => w.frame.toString("hex"))).toEqual(["010300500004" + "4418", "0103005000044418"]);
    expect((writes[1]?.at ?? 0) - t0).toBeGreaterThanOrEqual(55);
  });

  it("gives up after the profile's retries with a timeout error naming the unit", async () => {
    const { bus, writes } = await open(() => null);
    const err = await bus.request(READ, { timeoutMs: 30, retries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModbusTimeoutError);
    expect((err as ModbusTimeoutError).unit).toBe(1);
    expect(writes).toHaveLength(3);
  });

  it("keeps one transaction on the line: the next request is written only after the answer", async () => {
    const { bus, writes, answered } = await open((f) =>
      f[1] === 6 ? withCrc(Uint8Array.from(f.subarray(0, 6))) : DELTA_REPLY,
    );
    const results = await Promise.all([
      bus.request(READ, { timeoutMs: 200, retries: 0 }),
      bus.request(encodeWriteSingleRegister(5, 0, 12), { timeoutMs: 200, retries: 0 }),
      bus.request(READ, { timeoutMs: 200, retries: 0 }),
    ]);
    expect(results.map((r) => r.unit)).toEqual([1, 5, 1]);
    expect(writes).toHaveLength(3);
    for (let i = 1; i < writes.length; i++) {
      expect(writes[i]?.at ?? 0).toBeGreaterThanOrEqual(answered[i - 1] ?? Number.POSITIVE_INFINITY);
    }
  });

  it("reports an exception answer at once, without retrying", async () => {
    const { bus, writes } = await open(() => withCrc(Uint8Array.of(1, 0x83, 0x02)));
    const err = await bus.request(READ, { timeoutMs: 200, retries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModbusExceptionError);
    expect((err as ModbusExceptionError).exceptionName).toBe("illegal-data-address");
    expect(writes).toHaveLength(1);
  });

  it("skips the echo of its own request on a 2-wire RS-485 adapter", async () => {
    const { bus, writes } = await open(() => DELTA_REPLY, { echo: true });
    const answer = await bus.request(READ, { timeoutMs: 200, retries: 0 });
    expect(answer.kind === "read" && Buffer.from(answer.data).toString("hex")).toBe("023f020002c0021f");
    expect(writes).toHaveLength(1);
  });
});
