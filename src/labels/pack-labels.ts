/**
 * Station label printing (`printing.mode: station`): it joins the event bus, a label printer of
 * devices/ and the label layout beside this file. Each job's end is announced on the bus (`labelJob`),
 * so the operator screen shows a failed label without this module knowing the screen.
 */
import type { LookupFunction } from "node:net";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import { cupsPrinter } from "../devices/drivers/label-printer/cups-printer.js";
import { filePrinter, type LabelPrinter } from "../devices/drivers/label-printer/label-printer.js";
import type { AddressAllowance } from "../domain/webhook-address.js";
import type { AgentEvents, EventBus } from "../events.js";
import { binChains } from "./bin-chains.js";
import { type CarrierLabelFetch, carrierLabelFetchFor } from "./carrier-label-fetch.js";
import { labelSender } from "./label-sender.js";
import { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "./media.js";
import type { LabelData } from "./shipping-label.js";
import { zebraPrinterFor } from "./zebra-labels.js";
import type { ZplLabelOptions } from "./zpl-label.js";

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
  /** The carrier's label of an order that names one (docs/station.md#carrier-labels); the own label as a slip after it. */
  carrier: { fetch: CarrierLabelFetch; packingSlip: boolean };
  /** The ZPL label's options (a font on the printer), for a printer that takes ZPL first. */
  zpl?: ZplLabelOptions;
}

/**
 * Prints the shipping label of each pick+pack order when its bin completes, then releases the bin
 * (docs/architecture.md#pick-and-pack). Printing runs after the commit; a failed print leaves the bin
 * waiting, so the order can still be released by the print_ready call, and is logged.
 */
export function createPackLabels(deps: PackLabelDeps) {
  /** A job stuck at the printer holds only its own bin (docs/decisions.md#per-bin-label-queues). */
  const chains = binChains();
  let stopped = false;
  /** Why the last job of an order failed, until one succeeds. */
  const failures = new Map<string, string>();
  /** The boxes closed as full whose labels are not printed yet, by bin (docs/station.md#bin-full-box-full). */
  const boxes = new Map<string, AgentEvents["boxClosed"]["boxes"]>();
  /** Why the last label of a bin's closed box failed, by bin. */
  const boxFailures = new Map<string, string>();
  /** The bin each order completed in: its print jobs are that bin's. */
  const binOf = new Map<string, string>();
  /**
   * Orders whose label printed lately: a reprint queued behind that job sends nothing (one label a box).
   * Only the last ones matter (a reprint waits behind its own bin's job), so the oldest are let go.
   */
  const printedIds = new Set<string>();

  /** One label: rendered and sent to the printer; throws when it did not print. */
  const render = labelSender(deps);

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
      printedIds.add(id);
      if (printedIds.size > 256) printedIds.delete(printedIds.values().next().value as string);
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
        chains
          .run(e.binId, () => printBoxes(e.binId))
          .catch((err) => deps.log.error({ err }, "box label job"));
      });
      deps.bus.on(OWNER, "binComplete", (e) => {
        if (!e.pack) return;
        for (const id of e.requests) binOf.set(id, e.binId);
        // the bin's orders one after another; other bins do not wait for them
        for (const id of e.requests)
          chains.run(e.binId, () => printOne(id)).catch((err) => deps.log.error({ err }, "label job"));
      });
    },
    /**
     * Prints these orders' labels again (an operator's reprint at the screen), each after its bin's
     * earlier jobs; resolves with whether every one printed. `binId`: the bin they wait in, for orders
     * whose bin this run has not seen complete (the agent restarted since).
     */
    reprint(ids: readonly string[], binId?: string): Promise<boolean> {
      if (binId !== undefined) for (const id of ids) if (!binOf.has(id)) binOf.set(id, binId);
      const results = ids.map((id) =>
        chains.run(binOf.get(id), () => (printedIds.has(id) ? Promise.resolve(true) : printOne(id))),
      );
      return Promise.all(results).then((all) => all.length > 0 && all.every(Boolean));
    },
    /** Whether a bin holds a closed box whose label is not printed yet. */
    boxWaiting: (binId: string): boolean => boxes.has(binId),
    /** Prints the labels of the boxes closed in a bin again (a reprint at the screen). */
    reprintBox(binId: string): Promise<boolean> {
      return chains.run(binId, () => printBoxes(binId));
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
        printedIds.delete(id);
      }
    },
    /** Why the last label of each order failed to print (cleared once one prints). */
    failures: (): ReadonlyMap<string, string> => failures,
    async stop(): Promise<void> {
      stopped = true;
      deps.bus.off(OWNER);
      await chains.idle();
      await deps.printer.stop?.();
    },
    /** What the printer says of itself (/readyz, the screen); undefined when it says nothing. */
    printerState: () => deps.printer.state?.(),
  };
}

/** The configured printer: a CUPS queue, a Zebra on TCP 9100 (docs/hardware.md#zpl-labels), or files. */
function stationPrinter(
  printing: Config["printing"],
  a6: boolean,
  dataDir: string,
  log: Logger,
): LabelPrinter {
  switch (printing.printer) {
    case "cups":
      return cupsPrinter({
        queue: printing.cupsQueue as string,
        media: a6 ? "iso_a6_105x148mm" : "na_index-4x6_4x6in",
        server: printing.cupsServer,
        log,
      });
    case "zpl":
      return zebraPrinterFor(printing, log);
    default:
      return filePrinter(printing.dir ?? join(dataDir, "labels"));
  }
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
  /** The address guard of outgoing requests (webhook-delivery/address-guard.ts), for carrier label URLs. */
  addressGuard: (allow: AddressAllowance) => LookupFunction;
}): PackLabels | undefined {
  const { printing } = f.config;
  if (printing.mode !== "station") return undefined;
  const a6 = printing.media === "a6";
  return createPackLabels({
    bus: f.bus,
    printer: stationPrinter(printing, a6, f.dataDir, f.log),
    media: a6 ? MEDIA_A6 : MEDIA_4X6,
    labelData: f.labelData,
    printed: f.printed,
    ...(f.boxLabelData ? { boxLabelData: f.boxLabelData } : {}),
    ...(f.boxPrinted ? { boxPrinted: f.boxPrinted } : {}),
    now: f.now,
    log: f.log,
    carrier: {
      fetch: carrierLabelFetchFor(printing.carrierLabels, f.addressGuard, f.log),
      packingSlip: printing.carrierLabels.packingSlip,
    },
    zpl: { font: printing.zpl?.font },
  });
}

export type PackLabels = ReturnType<typeof createPackLabels>;
