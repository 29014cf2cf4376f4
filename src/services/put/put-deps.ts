import type { StockRepo } from "../../db/stock.repo.js";
import type { RequestContext } from "../request-record/request-record.js";

/** What the put use cases read and write: the request record, stock, and the staging rule. */
export interface PutDeps extends RequestContext {
  stock: StockRepo;
  /** Staging is allowed with no operator logged in (station.stagingWithLogout). */
  stagingWithLogout: boolean;
  /** Bins that follow a seat into training: nothing is staged into them (docs/station.md#bins-of-a-seat). */
  heldBins?: () => ReadonlySet<string>;
}
