/**
 * Station label printing (`printing.mode: station`): it joins the event bus, a label printer of
 * devices/ and the label layout beside this file. Each job's end is announced on the bus (`labelJob`),
 * so the operator screen shows a failed label without this module knowing the screen.
 */
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import {
  cupsPrinter,
  filePrinter,
  type LabelPrinter,
  type PrintJob,
} from "../devices/drivers/label-printer/label-printer.js";
import type { AgentEvents, EventBus } from "../events.js";
import { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "./media.js";
import type { LabelData } from "./shipping-label.js";
import { zebraPrinterFor } from "./zebra-labels.js";
import { type ZplLabelOptions, zplLabelDocument } from "./zpl-label.js";

const OWNER = "pack-labels";

export interface PackLabelDeps {
  bus: EventBus;
  printer: LabelPrinter;
  media: LabelMedia;
  /** The label data of a pick+pack request, or undefined when it is not one. */
  labelData: (externalServiceRequestId: string, printedAt: string) => LabelData | undefined;
  /** The printer reported the job done: the bin's flow resumes (as the print_ready call would). */
  printed: (externalServiceRequestId: string) => void;
  /** The label of a pick+pack box closed as full (its own OLPN, the units in it); none: not printed. */
  boxLabelData?: (externalServiceRequestId: string, olpn: string, printedAt: string) => LabelData | undefined;
  /** A closed box's labels printed: its bin may be taken away. */
  boxPrinted?: (binId: string) => void;
  now: () => number;
  log: Logger;
  /** The ZPL label's options (a font on the printer), for a printer that takes ZPL first. */
  zpl?: ZplLabelOptions;
}

/**
 * Prints the shipping label of each pick+pack order when its bin completes, then releases the bin
 * (docs/architecture.md#pick-and-pack). Printing runs after the commit; a failed print leaves the bin
 * waiting, so the order can still be released by the print_ready call, and is logged.
 */
export function createPackLabels(deps: PackLabelDeps) {
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Why the last job of an order failed, until one succeeds. */
  const failures = new Map<string, string>();
  /** The boxes closed as full whose labels are not printed yet, by bin (docs/station.md#bin-full-box-full). */
  const boxes = new Map<string, AgentEvents["boxClosed"]["boxes"]>();
  /** Why the last label of a bin's closed box failed, by bin. */
  const boxFailures = new Map<string, string>();
  /** The bin each order completed in: its print jobs are that bin's. */
  const binOf = new Map<string, string>();

  /** One label: rendered and sent to the printer; throws when it did not print. */
  async function render(data: LabelData, job: PrintJob): Promise<void> {
    if (deps.printer.accepts[0] === "zpl")
      return deps.printer.print(zplLabelDocument(data, deps.media, deps.zpl), job);
    // pdf-lib and bwip-js load with the first label, not with the agent (they weigh ~30 MB).
    const { renderShippingLabel } = await import("./shipping-label.js");
    const pdf = await renderShippingLabel(data, deps.media);
    await deps.printer.print({ format: "pdf", bytes: pdf }, job);
  }

  /** The labels of the boxes closed in a bin, one after another; the bin is let go once all printed. */
  async function printBoxes(binId: string): Promise<boolean> {
    const waiting = boxes.get(binId) ?? [];
    const at = new Date(deps.now()).toISOString();
    try {
      for (const box of waiting) {
        const data = deps.boxLabelData?.(box.externalServiceRequestId, box.olpn, at);
        if (!data) throw new Error(`no label data for box ${box.olpn}`);
        await render(data, { name: `${box.olpn}-${box.externalServiceRequestId}`, binId });
        deps.log.info(
          { externalServiceRequestId: box.externalServiceRequestId, olpn: box.olpn, binId },
          "box label printed",
        );
      }
      if (!stopped) deps.boxPrinted?.(binId);
      boxes.delete(binId);
      boxFailures.delete(binId);
      return waiting.length > 0;
    } catch (err) {
      boxFailures.set(binId, err instanceof Error ? err.message : String(err));
      deps.log.error({ err, binId }, "box label not printed; the closed box's bin waits for it");
      return false;
    } finally {
      const first = waiting[0];
      if (first) deps.bus.emit("labelJob", { externalServiceRequestId: first.externalServiceRequestId });
    }
  }

  /** Prints one order's label: true when the printer took it, false when it failed (or there is none). */
  async function printOne(id: string): Promise<boolean> {
    const data = deps.labelData(id, new Date(deps.now()).toISOString());
    if (!data) return false;
    let ok = false;
    try {
      await render(data, { name: `${data.olpn}-${id}`, binId: binOf.get(id) });
      if (!stopped) deps.printed(id);
      failures.delete(id);
      binOf.delete(id);
      ok = true;
      deps.log.info({ externalServiceRequestId: id, olpn: data.olpn }, "shipping label printed");
    } catch (err) {
      failures.set(id, err instanceof Error ? err.message : String(err));
      deps.log.error(
        { err, externalServiceRequestId: id },
        "shipping label not printed; the bin waits for print_ready",
      );
    }
    // the operator screen shows why a label did not print, and clears it once one does
    deps.bus.emit("labelJob", { externalServiceRequestId: id });
    return ok;
  }

  return {
    start(): void {
      stopped = false;
      // a printer with a state of its own (a Zebra's ~HS): the screen hears of each change
      deps.printer.onStateChange?.(() => deps.bus.emit("printer", deps.printer.state?.() ?? null));
      deps.printer.start?.();
      deps.bus.on(OWNER, "boxClosed", (e) => {
        boxes.set(e.binId, e.boxes);
        chain = chain.then(async () => {
          await printBoxes(e.binId);
        });
      });
      deps.bus.on(OWNER, "binComplete", (e) => {
        if (!e.pack) return;
        for (const id of e.requests) binOf.set(id, e.binId);
        // one print job at a time, in bin order: a label printer takes jobs one by one
        for (const id of e.requests)
          chain = chain.then(async () => {
            await printOne(id);
          });
      });
    },
    /**
     * Prints these orders' labels again (an operator's reprint at the screen), one job after another;
     * resolves with whether every one printed.
     */
    reprint(ids: readonly string[]): Promise<boolean> {
      const results = ids.map((id) => {
        const job = chain.then(() => printOne(id));
        chain = job.then(() => {});
        return job;
      });
      return Promise.all(results).then((all) => all.length > 0 && all.every(Boolean));
    },
    /** Whether a bin holds a closed box whose label is not printed yet. */
    boxWaiting: (binId: string): boolean => boxes.has(binId),
    /** Prints the labels of the boxes closed in a bin again (a reprint at the screen). */
    reprintBox(binId: string): Promise<boolean> {
      const job = chain.then(() => printBoxes(binId));
      chain = job.then(() => {});
      return job;
    },
    /** The closed box's label is skipped (its bin let go without it): nothing waits for it any more. */
    forgetBox(binId: string): void {
      boxes.delete(binId);
      boxFailures.delete(binId);
    },
    /** Why the last label of each bin's closed box failed, by bin (cleared once it prints). */
    boxFailures: (): ReadonlyMap<string, string> => boxFailures,
    /** Forgets why these orders' labels failed (released without a label). */
    forget(ids: readonly string[]): void {
      for (const id of ids) {
        failures.delete(id);
        binOf.delete(id);
      }
    },
    /** Why the last label of each order failed to print (cleared once one prints). */
    failures: (): ReadonlyMap<string, string> => failures,
    async stop(): Promise<void> {
      stopped = true;
      deps.bus.off(OWNER);
      await chain;
      await deps.printer.stop?.();
    },
    /** What the printer says of itself (/readyz, the screen); undefined when it says nothing. */
    printerState: () => deps.printer.state?.(),
  };
}

/** Station printing (`printing.mode: station`): the configured printer and media; none otherwise. */
export function packLabelsFor(f: {
  config: Config;
  dataDir: string;
  bus: EventBus;
  labelData: PackLabelDeps["labelData"];
  printed: PackLabelDeps["printed"];
  boxLabelData?: PackLabelDeps["boxLabelData"];
  boxPrinted?: PackLabelDeps["boxPrinted"];
  now: () => number;
  log: Logger;
}): PackLabels | undefined {
  const { printing } = f.config;
  if (printing.mode !== "station") return undefined;
  const a6 = printing.media === "a6";
  return createPackLabels({
    bus: f.bus,
    printer:
      printing.printer === "cups"
        ? cupsPrinter({
            queue: printing.cupsQueue as string,
            media: a6 ? "iso_a6_105x148mm" : "na_index-4x6_4x6in",
          })
        : filePrinter(printing.dir ?? join(f.dataDir, "labels")),
    // a Zebra on TCP 9100 (docs/hardware.md#zpl-labels)
    ...(printing.printer === "zpl" ? { printer: zebraPrinterFor(printing, f.log) } : {}),
    media: a6 ? MEDIA_A6 : MEDIA_4X6,
    labelData: f.labelData,
    printed: f.printed,
    ...(f.boxLabelData ? { boxLabelData: f.boxLabelData } : {}),
    ...(f.boxPrinted ? { boxPrinted: f.boxPrinted } : {}),
    now: f.now,
    log: f.log,
    zpl: { font: printing.zpl?.font },
  });
}

export type PackLabels = ReturnType<typeof createPackLabels>;
