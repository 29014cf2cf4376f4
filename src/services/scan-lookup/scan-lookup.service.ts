import type { ItemsRepo } from "../../db/items.repo.js";
import type { RequestsRepo } from "../../db/requests.repo.js";
import type { ScanRepo } from "../../db/scan.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import type { CaptureKind, CaptureRules } from "../../domain/capture.js";
import { gtinForms, parseGs1 } from "../../domain/gs1.js";
import { captureKindsOf } from "../pick/pick.service.js";
import type { StationWork } from "./station-work.js";

export { createStationWork, type StationWork } from "./station-work.js";

/**
 * What the station engine reads about the station for one scan or press (its door): what a scanned
 * text is in the data (item, slot, MSU, tote), the work it can be about, and the bins' state for their
 * lights. Reads only; the engine's changes go through the operations door (operations.service.ts).
 * A scan reads one statement, what its text is; the mode, seats and bins come from the station
 * repository's memory and the work from the station's work in memory (station-work.ts).
 */
export type ScanMeaning =
  | {
      kind: "item";
      itemId: number;
      sku: string;
      scanRequired?: boolean;
      /** the values of AI 21, 10 and 17 of the item's GS1 barcode (docs/capture.md#gs1-element-strings) */
      gs1?: Partial<Record<CaptureKind, string>>;
    }
  | { kind: "level"; itemId: number; sku: string; levelPath: string }
  | { kind: "slot"; location: string; msu: string; presented: boolean }
  | { kind: "msu"; msu: string; locations: string[]; presented: boolean }
  | { kind: "tote"; externalServiceRequestId: string; state: string; binId: string | null };

export interface ScanLookupDeps {
  scan: ScanRepo;
  station: StationRepo;
  work: StationWork;
  /** Capture at the seat (docs/capture.md): which items need it, and the serials already picked. */
  capture?: {
    rules: CaptureRules;
    items: Pick<ItemsRepo, "productAttributesOf">;
    requests: Pick<RequestsRepo, "captured">;
  };
}

/**
 * A GS1 scan of an item (docs/capture.md#gs1-element-strings): the rows of the barcode its GTIN is
 * listed under, and the values it carries besides; none when it is no GS1 scan or lists no item.
 */
function gs1Rows(scan: ScanRepo, barcode: string) {
  const parsed = parseGs1(barcode);
  if (!parsed?.ok || parsed.values.gtin === undefined) return { rows: [], gs1: undefined };
  const { serial, lot, expiry } = parsed.values;
  const gs1: Partial<Record<CaptureKind, string>> = {};
  if (serial !== undefined) gs1.serial = serial;
  if (lot !== undefined) gs1.lot = lot;
  if (expiry !== undefined) gs1.expiry = expiry;
  for (const form of gtinForms(parsed.values.gtin)) {
    const rows = scan.meanings(form).filter((m) => m.kind === "item" || m.kind === "level");
    if (rows.length) return { rows, gs1 };
  }
  return { rows: [], gs1: undefined };
}

/** Every meaning the text has in the data; the seat's step picks one (seat.machine.ts). */
export function meanings({ scan, work }: ScanLookupDeps, barcode: string): ScanMeaning[] {
  const out: ScanMeaning[] = [];
  const slots: string[] = [];
  let rows = scan.meanings(barcode);
  let gs1: Partial<Record<CaptureKind, string>> | undefined;
  if (!rows.length) ({ rows, gs1 } = gs1Rows(scan, barcode));
  for (const m of rows) {
    if (m.kind === "item")
      out.push({
        kind: "item",
        itemId: m.itemId,
        sku: m.sku,
        ...(m.scanRequired ? { scanRequired: true } : {}),
        ...(gs1 ? { gs1 } : {}),
      });
    else if (m.kind === "level")
      out.push({ kind: "level", itemId: m.itemId, sku: m.sku, levelPath: m.levelPath ?? "" });
    else if (m.kind === "slot")
      out.push({ kind: "slot", location: m.location, msu: m.msu, presented: work.isPresented(m.msu) });
    else if (m.kind === "msu") slots.push(m.location);
  }
  if (slots.length)
    out.push({ kind: "msu", msu: barcode, locations: slots, presented: work.isPresented(barcode) });
  for (const p of work.puts()) {
    if (p.toteId === barcode)
      out.push({
        kind: "tote",
        externalServiceRequestId: p.externalServiceRequestId,
        state: p.state,
        binId: p.binId,
      });
  }
  return out;
}

/** Pick work for the scanned item or slot, in work order, with what each item needs captured. */
export function pickWork({ work, capture }: ScanLookupDeps, found: readonly ScanMeaning[]) {
  const item = found.find((m) => m.kind === "item");
  const slot = found.find((m) => m.kind === "slot");
  if (!item && !slot) return [];
  const picks = work.picks().filter((p) => p.itemId === item?.itemId || p.location === slot?.location);
  if (!capture) return picks;
  return picks.map((p) => {
    const needs = captureKindsOf(capture, capture.rules, p.itemId);
    return needs.length ? { ...p, capture: needs } : p;
  });
}

/** The serial numbers among `candidates` that an actual of the station already reports. */
export function serialsTaken({ capture }: ScanLookupDeps, candidates: readonly string[]): string[] {
  const rule = capture?.rules.serial;
  if (!capture || !rule || rule.when === null) return [];
  return candidates.filter((s) => capture.requests.captured(rule.as, s));
}

/** Staged puts that expect the scanned item, with what they still expect of it. */
export function putWork({ work }: ScanLookupDeps, found: readonly ScanMeaning[]) {
  const item = found.find((m) => m.kind === "item");
  if (!item) return [];
  return work.puts().flatMap((p) => {
    if (p.state !== "staged") return [];
    const products = (p.expectations?.containers ?? [])
      .flatMap((c) => c.products)
      .filter((x) => x.itemId === item.itemId);
    const first = products[0];
    if (!first) return [];
    const expected = products.reduce((n, x) => n + x.productQuantity, 0);
    return [
      {
        externalServiceRequestId: p.externalServiceRequestId,
        sku: first.sku,
        itemId: item.itemId,
        left: Math.max(0, expected - work.handled(p.id, item.itemId)),
        binId: p.binId,
        toteId: p.toteId,
      },
    ];
  });
}

/** Whether pending pick work is still there to pick (the request may have changed meanwhile). */
export function pickStillThere(
  { work }: ScanLookupDeps,
  p: { externalServiceRequestId: string; line: string; location: string; quantity: number },
): boolean {
  return work
    .picks()
    .some(
      (c) =>
        c.location === p.location &&
        c.externalServiceRequestId === p.externalServiceRequestId &&
        c.line === p.line &&
        c.quantity >= p.quantity,
    );
}

/** Bins as their lights show them: state, print state, and the put of a complete tote in it. */
export function binLights({ station, work }: ScanLookupDeps) {
  const released = new Map(
    work
      .puts()
      .filter((p) => p.state === "complete")
      .map((p) => [p.binId, p.externalServiceRequestId]),
  );
  return station.bins().map((b) => ({ ...b, completePut: released.get(b.id) ?? null }));
}

/** The reads bound to their sources, as the station engine calls them. */
export function createScanLookup(deps: ScanLookupDeps) {
  return {
    mode: () => deps.station.mode(),
    user: (seat: string): string | null => deps.station.seat(seat)?.userName ?? null,
    meanings: (barcode: string) => meanings(deps, barcode),
    picks: (found: readonly ScanMeaning[]) => pickWork(deps, found),
    serialsTaken: (candidates: readonly string[]) => serialsTaken(deps, candidates),
    puts: (found: readonly ScanMeaning[]) => putWork(deps, found),
    audit: () => deps.work.audit(),
    pickStillThere: (p: Parameters<typeof pickStillThere>[1]) => pickStillThere(deps, p),
    bins: () => binLights(deps),
    putState: (externalServiceRequestId: string): string | null =>
      deps.work.puts().find((p) => p.externalServiceRequestId === externalServiceRequestId)?.state ?? null,
  };
}

export type ScanLookup = ReturnType<typeof createScanLookup>;
