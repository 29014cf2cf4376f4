import { type ClosedBin, closeFullBin, type OrderInBin } from "../../domain/bin-full.js";
import { AppError } from "../../domain/errors.js";
import { parseJson, viewOf } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { PickDeps } from "./pick-deps.js";
import { giveBin } from "./pick-effects.js";

const OPEN: readonly string[] = ["fulfillable", "cancellation_locked", "pick_started"];

export interface BinFullInput {
  externalServiceRequestId: string;
  ppsBinId: string;
}

/** What a bin closed as full came to: the orders that go on, each in its new bin. */
export interface BinFullOutcome {
  closed: string;
  moves: { order: string; to: string }[];
}

/**
 * Bin full, box full (docs/station.md#bin-full-box-full): the rule (domain/bin-full.ts) on the bin's
 * orders, applied in the caller's transaction: the bin turns complete (take it away; its button empties
 * it), each open order takes its new bin with the closed one recorded in `closed_bins`, and central is
 * told by one `order_information` per moved order (docs/decisions.md#bin-full-box-full).
 */
export function closeBinFull(deps: PickDeps, input: BinFullInput, tx: Tx): BinFullOutcome {
  const bin = deps.station.bin(input.ppsBinId);
  if (bin?.state !== "pick") {
    throw new AppError("invalid_state", `bin '${input.ppsBinId}' holds no picking to close`, [
      { path: "ppsBinId", message: bin ? `the bin is ${bin.state}` : "unknown bin" },
    ]);
  }
  const rows = deps.requests.inBin(bin.id).sort((a, b) => a.id - b.id);
  const orders: OrderInBin[] = rows.map((r) => {
    const exec = parseJson<Record<string, unknown>>(r.executionJson) ?? {};
    const picked = deps.requests
      .actuals(r.id)
      .filter((a) => a.state === "complete")
      .reduce((sum, a) => sum + a.quantity, 0);
    const closedBins = Array.isArray(exec.closed_bins) ? (exec.closed_bins as ClosedBin[]) : [];
    return {
      externalId: r.externalId,
      open: OPEN.includes(r.state),
      picked,
      closedBins,
      ...(r.isPack ? { olpn: packOlpn(deps, r.id) } : {}),
    };
  });
  const rule = closeFullBin({
    bin: bin.id,
    order: input.externalServiceRequestId,
    bins: deps.station.bins().map((b) => ({ id: b.id, state: b.state })),
    orders,
  });
  if (!rule.ok) {
    throw new AppError(rule.reason === "no_free_bin" ? "no_free_bin" : "invalid_state", rule.message, [
      { path: "ppsBinId", message: rule.message },
    ]);
  }
  // a pick+pack box closed gets its own label: the bin waits for it as a completed box does
  const boxes = rule.moves.flatMap((m) => {
    if (deps.stationPrinting !== true) return [];
    const olpn = m.closedBins.at(-1)?.olpn;
    return olpn === undefined ? [] : [{ externalServiceRequestId: m.order, olpn }];
  });
  deps.station.setBin(bin.id, "complete", boxes.length ? "waiting" : "none", tx.now);
  if (boxes.length) tx.announce("boxClosed", { binId: bin.id, boxes });
  for (const move of rule.moves) {
    const row = rows.find((r) => r.externalId === move.order);
    if (!row) continue;
    const given = giveBin(deps, row, move.to, tx);
    const exec = parseJson<Record<string, unknown>>(given.executionJson) ?? {};
    const next = { ...given, executionJson: JSON.stringify({ ...exec, closed_bins: move.closedBins }) };
    deps.requests.update(next);
    tx.notify("order_information", viewOf(next, deps));
    tx.announce("request", { type: "PICK", externalServiceRequestId: next.externalId });
  }
  tx.announce("station", {});
  return { closed: rule.closed, moves: rule.moves.map(({ order, to }) => ({ order, to })) };
}

/** The OLPN a pick+pack order's last box gets when it completes (picking.ts), its closed boxes' stem. */
export function packOlpn(deps: PickDeps, requestId: number): string {
  const first = deps.requests.lines(requestId)[0];
  const box = first ? parseJson<Record<string, unknown>>(first.attributesJson)?.packing_box_id : undefined;
  return typeof box === "string" ? box : `${deps.ppsId}-${requestId}`;
}
