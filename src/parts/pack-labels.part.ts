/**
 * Station label printing as a part of the agent (composition root, beside agent.ts): it joins the
 * event bus, a label printer of devices/ and the label layout of labels/, which station/ may not
 * import (docs/architecture.md, "Layers"). agent.ts builds it when `printing.mode` is `station`.
 */
import { join } from "node:path";
import type { Logger } from "pino";
import {
  cupsPrinter,
  filePrinter,
  type LabelPrinter,
} from "../devices/drivers/label-printer/label-printer.js";
import type { EventBus } from "../events.js";
import { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "../labels/media.js";
import type { LabelData } from "../labels/shipping-label.js";
import type { Foundation } from "./foundation.js";

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
  /** A job ended (printed or failed): the operator screen shows why a label did not print. */
  onResult?: () => void;
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

  async function printOne(id: string): Promise<void> {
    const data = deps.labelData(id, new Date(deps.now()).toISOString());
    if (!data) return;
    try {
      // pdf-lib and bwip-js load with the first label, not with the agent (they weigh ~30 MB).
      const { renderShippingLabel } = await import("../labels/shipping-label.js");
      const pdf = await renderShippingLabel(data, deps.media);
      await deps.printer.print(pdf, `${data.olpn}-${id}`);
      if (!stopped) deps.printed(id);
      failures.delete(id);
      deps.log.info({ externalServiceRequestId: id, olpn: data.olpn }, "shipping label printed");
    } catch (err) {
      failures.set(id, err instanceof Error ? err.message : String(err));
      deps.log.error(
        { err, externalServiceRequestId: id },
        "shipping label not printed; the bin waits for print_ready",
      );
    }
    deps.onResult?.();
  }

  return {
    start(): void {
      stopped = false;
      deps.bus.on(OWNER, "binComplete", (e) => {
        if (!e.pack) return;
        // one print job at a time, in bin order: a label printer takes jobs one by one
        for (const id of e.requests) chain = chain.then(() => printOne(id));
      });
    },
    /** Prints these orders' labels again (an operator's reprint at the screen), one job after another. */
    reprint(ids: readonly string[]): void {
      for (const id of ids) chain = chain.then(() => printOne(id));
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
export function packLabelsFor(f: Foundation, onResult: () => void): PackLabels | undefined {
  const { printing } = f.config;
  if (printing.mode !== "station") return undefined;
  const a6 = printing.media === "a6";
  return createPackLabels({
    bus: f.svc.bus,
    printer:
      printing.printer === "cups"
        ? cupsPrinter({
            queue: printing.cupsQueue as string,
            media: a6 ? "iso_a6_105x148mm" : "na_index-4x6_4x6in",
          })
        : filePrinter(printing.dir ?? join(f.dataDir, "labels")),
    media: a6 ? MEDIA_A6 : MEDIA_4X6,
    labelData: (id, at) => f.svc.picks.labelData(id, at),
    printed: (id) => f.svc.operations.printReady(id),
    now: f.now,
    log: f.log,
    onResult,
  });
}

export type PackLabels = ReturnType<typeof createPackLabels>;
