import type { LineRow } from "../../db/requests.repo.js";
import type { StockRepo } from "../../db/stock.repo.js";
import type { CaptureRules } from "../../domain/capture.js";
import type { PickLine, PickLineState } from "../../domain/pick-line.machine.js";
import type { PackAttribute } from "../../domain/pick-pack.js";
import type { PickLimits } from "../../domain/work-limits.js";
import type { RequestContext } from "../request-record/request-record.js";

/** What the pick use cases read and write: the request record, stock, and the station's time zone. */
export interface PickDeps extends RequestContext {
  stock: StockRepo;
  /**
   * pick_before_time / pick_after_time without an offset are read in this zone
   * (docs/architecture.md#conventions).
   */
  timeZone: string;
  /** Slots audits hold now: no pick is allocated there (audits.repo.ts). */
  lockedLocations: () => ReadonlySet<string>;
  /** Which line attributes make a pick+pack, and the work one request may ask (config `pick`). */
  pick: PickLimits & { packAttributes: readonly PackAttribute[] };
  /** Which items need a serial, lot or expiry captured at a pick, and their names in actuals (docs/capture.md). */
  capture: CaptureRules;
  /** The agent prints the labels (`printing.mode: station`): a pick+pack box closed as full waits for its own. */
  stationPrinting?: boolean;
  /** Bins no order is given now: those that follow a seat into training (docs/station.md#bins-of-a-seat). */
  heldBins?: () => ReadonlySet<string>;
}

/** A stored line as the pick-line machine sees it. */
export function lineState(l: LineRow): PickLine {
  return { state: l.state as PickLineState, expected: l.expected, picked: l.picked, short: l.short };
}
