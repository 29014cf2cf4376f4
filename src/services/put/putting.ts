import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { AppError } from "../domain/errors.js";
import type { PutExceptionState } from "../domain/put.machine.js";
import type { PutSupport } from "./put-support.js";
import { EXCESS } from "./put-support.js";
import { mustFind, type RequestContext } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

/** The operator's put transactions, exceptions and the tote's release (DESIGN.md §4 Put). */
export function createPuttingService(ctx: RequestContext, stock: StockRepo, support: PutSupport) {
  const { progress, step, apply, record, atStation, itemFor } = support;
  return {
    put(
      tx: Tx,
      input: {
        externalServiceRequestId: string;
        product_sku: string;
        location: string;
        quantity: number;
        seat?: string | undefined;
      },
    ): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
      const itemId = itemFor(row, input.product_sku);
      const loc = stock.location(input.location);
      if (!loc || !stock.isPresented(input.location)) {
        throw new AppError("invalid_state", `slot '${input.location}' is not on a rack at the station`, [
          { path: "location", message: "present its rack first" },
        ]);
      }
      const p = progress(row);
      const left = p.left(input.product_sku);
      if (row.state === "staged" && input.quantity > left) {
        throw new AppError(
          "validation_failed",
          `quantity ${input.quantity} is more than the ${left} expected`,
          [{ path: "quantity", message: `at most ${left}` }],
        );
      }
      const s = step(row, {
        type: "put_transaction",
        productSku: input.product_sku,
        location: input.location,
        itemId: String(itemId),
        quantity: input.quantity,
        finished: p.total - input.quantity === 0,
      });
      stock.add(input.location, itemId, input.quantity);
      record(tx, row, input.product_sku, itemId, "complete", input.quantity, input.location, {
        user_name: op.user,
        pps_seat_name: op.seat,
      });
      return apply(
        tx,
        row,
        s.state,
        s.effects.filter((e) => e.kind !== "add" && e.kind !== "record_actual"),
      );
    },

    exception(
      tx: Tx,
      input: {
        externalServiceRequestId: string;
        product_sku: string;
        quantity: number;
        reason: PutExceptionState;
        seat?: string | undefined;
      },
    ): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
      const itemId = itemFor(row, input.product_sku);
      const p = progress(row);
      const excess = EXCESS.includes(input.reason);
      const left = p.left(input.product_sku);
      if (row.state === "staged" && !excess && input.quantity > left) {
        throw new AppError(
          "validation_failed",
          `quantity ${input.quantity} is more than the ${left} expected`,
          [{ path: "quantity", message: `at most ${left}` }],
        );
      }
      const finished = p.total - (excess ? 0 : input.quantity) === 0;
      const s = step(row, {
        type: "put_exception",
        productSku: input.product_sku,
        state: input.reason,
        quantity: input.quantity,
        finished,
      });
      const id = record(tx, row, input.product_sku, itemId, input.reason, input.quantity, null, {
        user_name: op.user,
        pps_seat_name: op.seat,
      });
      return apply(
        tx,
        row,
        s.state,
        s.effects.filter((e) => e.kind !== "record_actual"),
        { exceptionIds: [id] },
      );
    },

    release(tx: Tx, externalId: string): RequestRow {
      const row = mustFind(ctx, "PUT", externalId);
      const s = step(row, { type: "release" });
      return apply(tx, row, s.state, s.effects);
    },
  };
}

export type PuttingService = ReturnType<typeof createPuttingService>;
