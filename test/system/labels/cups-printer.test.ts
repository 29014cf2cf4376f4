/**
 * The CUPS label printer against a real cupsd of the test's own (test/support/cupsd.ts) and a label
 * printer on a loopback socket: each failure is told with its cause within the 15 s of
 * docs/hardware.md#cups-verdicts, logged while it waits, the job given up on is cancelled, and once the
 * cause is fixed a reprint leaves exactly one label at the device.
 */
import { readFileSync } from "node:fs";
import bwipjs from "bwip-js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CupsPrinter, cupsPrinter } from "../../../src/devices/drivers/label-printer/cups-printer.js";
import { type SocketPrinter, startCupsd, startSocketPrinter, type TestCupsd } from "../../support/cupsd.js";
import { deadline, until } from "../../support/deadline.js";
import { LogLines } from "../../support/log-lines.js";

const pdf = {
  format: "pdf" as const,
  bytes: new Uint8Array(readFileSync("/usr/share/cups/data/default.pdf")),
};
/** The verdict the agent promises (docs/hardware.md#cups-verdicts), plus this machine's slack. */
const VERDICT_MS = 15_000;

let cupsd: TestCupsd;
const closers: Array<() => Promise<void>> = [];
let queues = 0;

beforeAll(async () => {
  cupsd = await startCupsd();
});
afterAll(async () => {
  for (const close of closers) await close();
  await cupsd.close();
});

interface Station {
  queue: string;
  device: SocketPrinter;
  printer: CupsPrinter;
  log: LogLines;
}

async function station(device?: SocketPrinter): Promise<Station> {
  const dev = device ?? (await startSocketPrinter());
  closers.push(() => dev.close());
  const queue = `LABEL${++queues}`;
  await cupsd.addQueue(queue, dev.uri);
  const log = new LogLines();
  const printer = cupsPrinter({
    queue,
    media: "na_index-4x6_4x6in",
    server: cupsd.server,
    log: pino({ level: "info" }, log),
    pollMs: 500,
    logEveryMs: 2000,
  });
  return { queue, device: dev, printer, log };
}

/** Prints and waits for the verdict: why it failed (undefined: printed) and how long it took. */
async function verdict(s: Station, binId: string): Promise<{ error: string | undefined; ms: number }> {
  const start = Date.now();
  const error = await s.printer.print(pdf, { name: `BOX-${binId}`, binId }).then(
    () => undefined,
    (e: Error) => e.message,
  );
  const ms = Date.now() - start;
  console.info(`verdict on ${s.queue}: ${ms} ms: ${error ?? "printed"}`);
  return { error, ms };
}

/** The jobs CUPS still holds for the queue (none: nothing can print later by itself). */
async function pending(queue: string): Promise<string> {
  return (await cupsd.run("lpstat", ["-W", "not-completed", "-o", queue])).trim();
}

describe("CUPS verdicts", () => {
  it("a label printed: the verdict comes once the device has it", async () => {
    const s = await station();
    const v = await verdict(s, "1");
    expect(v.error).toBeUndefined();
    expect(s.device.labels()).toBe(1);
    expect(Buffer.compare(s.device.jobs()[0] as Buffer, Buffer.from(pdf.bytes))).toBe(0);
  });

  it("a paused queue: said as paused, the job cancelled; resumed, the reprint prints one label", async () => {
    const s = await station();
    await cupsd.run("cupsdisable", [s.queue]);
    const v = await verdict(s, "2");
    expect(v.error).toBe(`the print queue ${s.queue} is paused`);
    expect(v.ms).toBeLessThan(VERDICT_MS + deadline(1000));
    expect(await pending(s.queue)).toBe("");
    await cupsd.run("cupsenable", [s.queue]);
    expect((await verdict(s, "2")).error).toBeUndefined();
    // the cancelled job does not print by itself once the queue runs again
    await new Promise((r) => setTimeout(r, 2000));
    expect(s.device.labels()).toBe(1);
  });

  it("a printer disabled with a reason: the reason is said", async () => {
    const s = await station();
    await cupsd.run("cupsdisable", ["-r", "out of labels", s.queue]);
    const v = await verdict(s, "3");
    expect(v.error).toBe(`the print queue ${s.queue} is paused (out of labels)`);
    await cupsd.run("cupsenable", [s.queue]);
    expect((await verdict(s, "3")).error).toBeUndefined();
    expect(s.device.labels()).toBe(1);
  });

  it("a queue not accepting jobs: refused at once, with the reason", async () => {
    const s = await station();
    await cupsd.run("cupsreject", ["-r", "maintenance", s.queue]);
    const v = await verdict(s, "4");
    expect(v.error).toBe(`the print queue ${s.queue} is not accepting jobs (maintenance)`);
    await cupsd.run("cupsaccept", [s.queue]);
    expect((await verdict(s, "4")).error).toBeUndefined();
    expect(s.device.labels()).toBe(1);
  });

  it("an unreachable printer: said with the backend's words within 15 s, logged while waiting, cancelled", async () => {
    const device = await startSocketPrinter({ plugged: false });
    const s = await station(device);
    const v = await verdict(s, "5");
    expect(v.error).toMatch(new RegExp(`^the printer ${s.queue} cannot be reached \\(.+\\)$`));
    expect(v.ms).toBeLessThan(VERDICT_MS + deadline(1000));
    const waiting = s.log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "label print job waiting");
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]).toMatchObject({
      jobId: `${s.queue}-${waiting[0].jobId.split("-")[1]}`,
      state: "printing",
    });
    expect(waiting[0].reason).toMatch(/unavailable|connect/i);
    expect(await pending(s.queue)).toBe("");
    await device.plug();
    expect((await verdict(s, "5")).error).toBeUndefined();
    await new Promise((r) => setTimeout(r, 2000));
    expect(device.labels()).toBe(1);
  });

  it("PNG through a queue with a driver: cups-filters' imagetopdf makes pages of it", async () => {
    const s = await station();
    await cupsd.run("lpadmin", ["-p", s.queue, "-m", "drv:///sample.drv/generic.ppd"]);
    expect(s.printer.accepts).toEqual(["pdf", "png"]);
    const png = await bwipjs.toBuffer({ bcid: "code128", text: "BOX-8", scale: 2 });
    const error = await s.printer
      .print({ format: "png", bytes: new Uint8Array(png) }, { name: "BOX-8", binId: "8" })
      .then(
        () => undefined,
        (e: Error) => e.message,
      );
    expect(error).toBeUndefined();
    // the generic PostScript driver's output: the image made into a page
    expect(s.device.jobs().map((j) => j.subarray(0, 11).toString("latin1"))).toEqual(["%!PS-Adobe-"]);
  });

  it("a label a filter cannot convert: said with the server's words, the job cancelled", async () => {
    const s = await station();
    await cupsd.run("lpadmin", ["-p", s.queue, "-m", "drv:///sample.drv/generic.ppd"]);
    const broken = { format: "pdf" as const, bytes: new TextEncoder().encode("%PDF-1.4\nnot a PDF\n") };
    const error = await s.printer.print(broken, { name: "BOX-9", binId: "9" }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(
      new RegExp(
        `^the print server could not convert the print job ${s.queue}-\\d+ for the printer ${s.queue} \\(.+\\)$`,
      ),
    );
    expect(await pending(s.queue)).toBe("");
    expect(s.device.labels()).toBe(0);
  });

  it("a queue that does not exist: said as not installed", async () => {
    const printer = cupsPrinter({ queue: "NOSUCH", media: "na_index-4x6_4x6in", server: cupsd.server });
    const error = await printer.print(pdf, { name: "x", binId: "9" }).then(
      () => "printed",
      (e: Error) => e.message,
    );
    expect(error).toBe("the printer NOSUCH is not installed in CUPS");
  });
});

describe("CUPS verdicts when cupsd stops", () => {
  it("cupsd stopped: said as not running (not as a printer not installed); once back, one label", async () => {
    const s = await station();
    await cupsd.stop();
    const v = await verdict(s, "6");
    expect(v.error).toBe("the print server (cupsd) is not running");
    expect(v.ms).toBeLessThan(VERDICT_MS + deadline(1000));
    await cupsd.start();
    expect((await verdict(s, "6")).error).toBeUndefined();
    expect(s.device.labels()).toBe(1);
  });

  it("cupsd killed mid-job: said as not running; the job is cancelled once cupsd is back, before the reprint", async () => {
    const device = await startSocketPrinter({ plugged: false });
    const s = await station(device);
    const job = verdict(s, "7");
    await until(
      "the job stuck at the unreachable printer",
      async () => (await pending(s.queue)) !== "",
      5000,
    );
    await cupsd.stop("SIGKILL");
    const v = await job;
    expect(v.error).toBe("the print server (cupsd) is not running");
    expect(v.ms).toBeLessThan(VERDICT_MS + deadline(1000));
    // the job could not be cancelled: it is remembered
    expect(s.printer.uncancelled()).toEqual([{ id: expect.stringMatching(/^LABEL\d+-\d+$/), binId: "7" }]);
    // while cupsd is down, a reprint of the bin says why and sends nothing
    const refused = await verdict(s, "7");
    expect(refused.error).toMatch(
      /^the print server \(cupsd\) is not running; it could not cancel the earlier/,
    );
    await cupsd.start();
    await device.plug();
    const again = await verdict(s, "7");
    expect(again.error).toBeUndefined();
    expect(s.printer.uncancelled()).toEqual([]);
    await new Promise((r) => setTimeout(r, 2000));
    expect(device.labels()).toBe(1);
  });
});
