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
} from "../devices/drivers/label-printer/label-printer.js";
import type { EventBus } from "../events.js";
import { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "./media.js";
import type { LabelData } from "./shipping-label.js";

const OWNER = "pack-labels";

export interface PackLabelDeps {
  bus: EventBus;
  printer: LabelPrinter;
  media: LabelMedia;
  /** The label data of a pick+pack request, or undefined when it is not one. */
  labelData: (externalServiceRequestId: string, printedAt: string) => LabelData | undefined;
  /** The printer reported the job done: the bin's flow resumes (as the print_ready call would). */
  printed: (externalServiceRequestId: string) => void;
  now: () => number;
  log: Logger;
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

  /** Prints one order's label: true when the printer took it, false when it failed (or there is none). */
  async function printOne(id: string): Promise<boolean> {
    const data = deps.labelData(id, new Date(deps.now()).toISOString());
    if (!data) return false;
    let ok = false;
    try {
      // pdf-lib and bwip-js load with the first label, not with the agent (they weigh ~30 MB).
      const { renderShippingLabel } = await import("./shipping-label.js");
      const pdf = await renderShippingLabel(data, deps.media);
      await deps.printer.print(pdf, `${data.olpn}-${id}`);
      if (!stopped) deps.printed(id);
      failures.delete(id);
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
      deps.bus.on(OWNER, "binComplete", (e) => {
        if (!e.pack) return;
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
    /** Forgets why these orders' labels failed (released without a label). */
    forget(ids: readonly string[]): void {
      for (const id of ids) failures.delete(id);
    },
    /** Why the last label of each order failed to print (cleared once one prints). */
    failures: (): ReadonlyMap<string, string> => failures,
    async stop(): Promise<void> {
      stopped = true;
      deps.bus.off(OWNER);
      await chain;
    },
  };
}

/** Station printing (`printing.mode: station`): the configured printer and media; none otherwise. */
export function packLabelsFor(f: {
  config: Config;
  dataDir: string;
  bus: EventBus;
  labelData: PackLabelDeps["labelData"];
  printed: PackLabelDeps["printed"];
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
    media: a6 ? MEDIA_A6 : MEDIA_4X6,
    labelData: f.labelData,
    printed: f.printed,
    now: f.now,
    log: f.log,
  });
}

export type PackLabels = ReturnType<typeof createPackLabels>;
