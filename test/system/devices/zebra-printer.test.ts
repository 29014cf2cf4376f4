/**
 * The Zebra on its raw port against a fake printer on loopback (docs/hardware.md#zpl-labels): a label
 * counts as printed once the printer took it and `~HS` shows it done; each fault is a refusal in the
 * printer's words, a label given up on is cancelled (`~JA`) so that clearing the fault prints nothing by
 * itself, a dropped connection is a failure and is re-established.
 */
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { zebraPrinter } from "../../../src/devices/drivers/label-printer/zebra-printer.js";
import { until } from "../../support/deadline.js";
import { type FakeZebra, startFakeZebra } from "../../support/fake-zebra.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const LABEL = (n: number) => ({
  format: "zpl" as const,
  bytes: Buffer.from(`^XA^FO30,30^A0N,30,30^FDlabel ${n}^FS^XZ`),
});
const JOB = { name: "BOX-1-PL1", binId: "B1" };

async function setup(printMs = 100, statusIntervalMs = 200, jobTimeoutMs = 5000) {
  const fake = await startFakeZebra({ printMs });
  const printer = zebraPrinter({
    host: fake.host,
    port: fake.port,
    statusIntervalMs,
    statusTimeoutMs: 500,
    jobTimeoutMs,
    log: pino({ level: "silent" }),
  });
  printer.start();
  cleanup.push(
    () => fake.close(),
    () => printer.stop(),
  );
  await until("the printer's first status", () => printer.status() !== null);
  return { fake, printer };
}

/** Waits until the fake has printed everything it still holds (a fault cleared). */
async function settle(fake: FakeZebra) {
  await until("the fake's buffer empty", () => fake.buffered() === 0);
}

describe("zebra printer on TCP 9100", () => {
  it("a label is done once the printer printed it; it is printed once", async () => {
    const { fake, printer } = await setup(300);
    await printer.print(LABEL(1), JOB);
    // done means printed: the fake had it out of its buffer before print() resolved
    expect(fake.printed).toEqual([LABEL(1).bytes.toString()]);
    expect(printer.state()).toEqual({
      ok: true,
      problem: null,
      cause: null,
      printer: `127.0.0.1:${fake.port}`,
    });
    await expect(printer.print({ format: "pdf", bytes: new Uint8Array() }, JOB)).rejects.toThrow(
      /takes ZPL, not pdf/,
    );
  });

  it.each([
    [{ paused: true }, "the printer is paused"],
    [{ paperOut: true }, "the printer is out of paper"],
    [{ headOpen: true }, "the printer's head is open"],
  ])(
    "%o: refused in words, sent nothing once known; cleared, the next label prints at once",
    async (fault, words) => {
      // no status poll within the test: what the printer is known to be comes from the labels themselves
      const { fake, printer } = await setup(100, 60_000);
      fake.set(fault);
      // sent as the fault came: given up and cancelled
      await expect(printer.print(LABEL(1), JOB)).rejects.toThrow(words);
      await until("the label cancelled", () => fake.counts.cancels === 1 && fake.buffered() === 0);
      expect(printer.state()).toMatchObject({ ok: false, problem: words });
      // known: refused before anything is sent (nothing in the buffer, nothing more to cancel)
      await expect(printer.print(LABEL(2), JOB)).rejects.toThrow(words);
      expect(fake.buffered()).toBe(0);
      expect(fake.counts.cancels).toBe(1);
      fake.set({ paused: false, paperOut: false, headOpen: false });
      // right after the fault is cleared: the printer is asked again before a refusal
      await printer.print(LABEL(3), JOB);
      await settle(fake);
      expect(fake.printed).toEqual([LABEL(3).bytes.toString()]);
      expect(printer.state().ok).toBe(true);
    },
  );

  it("a fault that comes as the label goes: the label is cancelled (~JA) and does not print when the fault clears", async () => {
    const { fake, printer } = await setup();
    fake.set({ paperOut: true });
    // the printer still looks ready (its last answer is older than the fault)
    const failed = printer.print(LABEL(1), JOB);
    await expect(failed).rejects.toThrow("the printer is out of paper");
    await until("the label cancelled", () => fake.counts.cancels === 1);
    expect(fake.buffered()).toBe(0);
    fake.set({ paperOut: false });
    await until("ok again", () => printer.state().ok);
    await printer.print(LABEL(2), JOB);
    await settle(fake);
    expect(fake.printed).toEqual([LABEL(2).bytes.toString()]);
  });

  it("a printer that does not answer ~HS: refused in words; the label sent is cancelled", async () => {
    const { fake, printer } = await setup();
    fake.set({ silent: true });
    await expect(printer.print(LABEL(1), JOB)).rejects.toThrow(
      `the printer does not answer at 127.0.0.1:${fake.port}`,
    );
    await until("the label cancelled", () => fake.counts.cancels === 1);
    await until(
      "not answering",
      () => printer.state().problem?.startsWith("the printer does not answer") === true,
    );
    fake.set({ silent: false });
    await until("ok again", () => printer.state().ok);
    await settle(fake);
    expect(fake.printed).toEqual([]);
  });

  it("a connection lost mid-job is a failure in words; the printer is reconnected and the next label prints once", async () => {
    const { fake, printer } = await setup();
    fake.dropNextFormat();
    await expect(printer.print(LABEL(1), JOB)).rejects.toThrow(
      `the connection to the printer at 127.0.0.1:${fake.port} was lost during the job`,
    );
    await until("reconnected", () => fake.counts.connections === 2 && printer.state().ok);
    await printer.print(LABEL(2), JOB);
    expect(fake.printed).toEqual([LABEL(2).bytes.toString()]);
  });

  it("labels not finished within the job's timeout are given up in words and cancelled; one already printing finishes", async () => {
    const { fake, printer } = await setup(3000, 200, 1000);
    // one label of a carrier's two: the second is still in the buffer when the agent gives up
    const two = Buffer.from("^XA^FDone^FS^XZ^XA^FDtwo^FS^XZ");
    await expect(printer.print({ format: "zpl", bytes: two }, JOB)).rejects.toThrow(
      `the printer at 127.0.0.1:${fake.port} did not finish the label within 1 s`,
    );
    await until("the buffer cancelled", () => fake.counts.cancels === 1);
    await until("the label printing finished", () => fake.buffered() === 0, 10_000);
    // the limit of ~JA (docs/limits.md#labels-on-a-zebra): the label under the head is not stopped
    expect(fake.printed).toEqual(["^XA^FDone^FS^XZ"]);
  });

  it("nobody listening: the printer does not answer, in words", async () => {
    const { fake, printer } = await setup();
    await fake.close();
    await until("down", () => !printer.state().ok);
    await expect(printer.print(LABEL(1), JOB)).rejects.toThrow(
      `the printer does not answer at 127.0.0.1:${fake.port}`,
    );
  });
});
