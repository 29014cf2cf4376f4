/**
 * Station printing keeps one job chain per bin (docs/decisions.md#per-bin-label-queues): a label that
 * waits at the printer holds only its own bin; a bin's labels go in order; a reprint queued behind a job
 * that then prints sends nothing; stop waits for every bin. The printer is the file printer, with a gate
 * in front that holds the jobs of the bins the test names, as a printer holds a job it cannot finish.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { LabelPrinter } from "../../../src/devices/drivers/label-printer/label-printer.js";
import { filePrinter } from "../../../src/devices/drivers/label-printer/label-printer.js";
import { EventBus } from "../../../src/events.js";
import { MEDIA_4X6 } from "../../../src/labels/media.js";
import { createPackLabels } from "../../../src/labels/pack-labels.js";
import { until } from "../../support/deadline.js";
import { tempDir } from "../../support/temp-dirs.js";

/** The file printer behind a gate: a held bin's jobs wait until released, or fail when told to. */
function gatedPrinter(dir: string) {
  const files = filePrinter(dir);
  const held = new Map<string, Array<(fail?: string) => void>>();
  const holding = new Set<string>();
  const started: string[] = [];
  const printer: LabelPrinter = {
    accepts: files.accepts,
    async print(doc, job) {
      started.push(job.name);
      const bin = job.binId ?? "";
      if (holding.has(bin)) {
        const fail = await new Promise<string | undefined>((resolve) => {
          held.set(bin, [...(held.get(bin) ?? []), resolve]);
        });
        if (fail) throw new Error(fail);
      }
      await files.print(doc, job);
    },
  };
  return {
    printer,
    started,
    hold: (bin: string) => holding.add(bin),
    /** Lets the bin's waiting jobs go: printed, or failed with `fail`. */
    release(bin: string, fail?: string) {
      holding.delete(bin);
      for (const go of held.get(bin) ?? []) go(fail);
      held.delete(bin);
    },
    waiting: (bin: string) => held.get(bin)?.length ?? 0,
  };
}

function setup() {
  const dir = tempDir("pps-edge-bin-labels-");
  const gate = gatedPrinter(dir);
  const bus = new EventBus();
  const printed: string[] = [];
  const labels = createPackLabels({
    bus,
    printer: gate.printer,
    media: MEDIA_4X6,
    labelData: (id, printedAt) => ({
      externalServiceRequestId: id,
      olpn: `BOX-${id}`,
      station: "1/1",
      lines: [{ product: "PK", quantity: 1 }],
      printedAt,
    }),
    printed: (id) => printed.push(id),
    now: () => Date.parse("2026-11-28T10:00:00Z"),
    log: pino({ level: "silent" }),
    // these orders name no carrier label: nothing is fetched
    carrier: {
      fetch: () => Promise.reject(new Error("no carrier label is fetched here")),
      packingSlip: false,
    },
  });
  labels.start();
  const file = (id: string) => existsSync(join(dir, `BOX-${id}-${id}.pdf`));
  return { gate, bus, printed, labels, file };
}

describe("one job chain per bin", () => {
  it("a bin whose label is held at the printer does not delay another bin's label", async () => {
    const { gate, bus, printed, labels, file } = setup();
    gate.hold("1");
    bus.emit("binComplete", { binId: "1", pack: true, requests: ["A"] });
    bus.emit("binComplete", { binId: "2", pack: true, requests: ["B"] });
    // the first label loads pdf-lib and bwip-js: seconds on a busy machine
    await until("bin 2's label printed", () => printed.includes("B"), 15_000);
    expect(file("B")).toBe(true);
    expect(gate.waiting("1")).toBe(1);
    expect(printed).toEqual(["B"]);
    gate.release("1");
    await until("bin 1's label printed once released", () => printed.includes("A"));
    await labels.stop();
  });

  it("a bin's labels go one after another, in order", async () => {
    const { gate, bus, printed, labels } = setup();
    gate.hold("3");
    bus.emit("binComplete", { binId: "3", pack: true, requests: ["C1", "C2"] });
    await until("the first label at the printer", () => gate.waiting("3") === 1, 15_000);
    // the second waits behind the first: it has not reached the printer
    await new Promise((r) => setTimeout(r, 300));
    expect(gate.started).toEqual(["BOX-C1-C1"]);
    gate.release("3");
    await until("both printed", () => printed.length === 2);
    expect(printed).toEqual(["C1", "C2"]);
    await labels.stop();
  });

  it("a reprint queued behind a job that then prints sends nothing; after a failure it prints again", async () => {
    const { gate, bus, printed, labels } = setup();
    gate.hold("4");
    bus.emit("binComplete", { binId: "4", pack: true, requests: ["D"] });
    await until("the label at the printer", () => gate.waiting("4") === 1, 15_000);
    const reprint = labels.reprint(["D"]);
    gate.release("4");
    expect(await reprint).toBe(true);
    expect(gate.started).toEqual(["BOX-D-D"]);
    expect(printed).toEqual(["D"]);

    gate.hold("5");
    bus.emit("binComplete", { binId: "5", pack: true, requests: ["E"] });
    await until("the label at the printer", () => gate.waiting("5") === 1, 15_000);
    gate.release("5", "the print queue Q is paused");
    await until("the failure known", () => labels.failures().get("E") === "the print queue Q is paused");
    expect(await labels.reprint(["E"])).toBe(true);
    expect(gate.started).toEqual(["BOX-D-D", "BOX-E-E", "BOX-E-E"]);
    await labels.stop();
  });

  it("a reprint of an order whose bin this run has not seen complete goes on the bin the screen names", async () => {
    const { gate, printed, labels } = setup();
    gate.hold("8");
    const reprint = labels.reprint(["H"], "8");
    await until("the reprint held on bin 8", () => gate.waiting("8") === 1, 15_000);
    gate.release("8");
    expect(await reprint).toBe(true);
    expect(printed).toEqual(["H"]);
    await labels.stop();
  });

  it("stop waits for every bin's chain", async () => {
    const { gate, bus, printed, labels } = setup();
    gate.hold("6");
    gate.hold("7");
    bus.emit("binComplete", { binId: "6", pack: true, requests: ["F"] });
    bus.emit("binComplete", { binId: "7", pack: true, requests: ["G"] });
    await until("both at the printer", () => gate.waiting("6") + gate.waiting("7") === 2, 15_000);
    let stopped = false;
    const stop = labels.stop().then(() => {
      stopped = true;
    });
    gate.release("6");
    await new Promise((r) => setTimeout(r, 200));
    expect(stopped).toBe(false);
    gate.release("7");
    await stop;
    expect(stopped).toBe(true);
    // stopped: the jobs ended, but no bin is released any more
    expect(printed).toEqual([]);
  });
});
