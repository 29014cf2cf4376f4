import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { AppError } from "../domain/errors.js";
import { isRefusal } from "../domain/machine.js";
import {
  type PickEffect,
  type PickExceptionReason,
  type PickState,
  stepPick,
} from "../domain/pick.machine.js";
import { outstanding, type PickLine, stepPickLine, summarizeLines } from "../domain/pick-line.machine.js";
import type { BinsService } from "./bins.service.js";
import { applyPickEffects } from "./pick-effects.js";
import { lineState, mustFind, operatorIn, parseJson, type RequestContext } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

export interface PickTransactionInput {
  externalServiceRequestId: string;
  line: string;
  location: string;
  quantity: number;
  seat?: string | undefined;
}

export interface PickExceptionInput {
  externalServiceRequestId: string;
  line: string;
  quantity: number;
  reason: PickExceptionReason;
  seat?: string | undefined;
}

/** Racks at the station and the operator's pick transactions (DESIGN.md §4 Pick). */
export function createPickingService(ctx: RequestContext, stock: StockRepo, bins: BinsService) {
  const atStation = (seat: string | undefined) => operatorIn(ctx, "pick", seat);

  function findLine(row: RequestRow, externalLineId: string) {
    const line = ctx.requests.lines(row.id).find((l) => l.externalId === externalLineId);
    if (!line) {
      throw new AppError("not_found", `request '${row.externalId}' has no line '${externalLineId}'`, [
        { path: "line", message: "unknown pick line" },
      ]);
    }
    return line;
  }

  /** Records the request-level step, then follows with lines_short when nothing is left to pick. */
  function finish(
    tx: Tx,
    row: RequestRow,
    step: { state: PickState; effects: PickEffect[] },
    actor: Record<string, string>,
    itemHint: number | null = null,
  ) {
    const exec: Record<string, unknown> = {
      ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}),
      pps_seat_name: actor.pps_seat_name,
      user_name: actor.user_name,
    };
    let withOlpn = exec;
    if (step.state === "complete" && row.isPack) {
      const first = ctx.requests.lines(row.id)[0];
      const box = first
        ? parseJson<Record<string, unknown>>(first.attributesJson)?.packing_box_id
        : undefined;
      withOlpn = { ...exec, olpn: typeof box === "string" ? box : `${ctx.ppsId}-${row.id}` };
    }
    let next = applyPickEffects(
      tx,
      ctx,
      stock,
      { ...row, executionJson: JSON.stringify(withOlpn) },
      step.state,
      step.effects,
      bins.hooks,
      actor,
      itemHint,
    );
    const lines = ctx.requests.lines(row.id).map(lineState);
    if (next.state === "pick_started" && summarizeLines(lines) === "short") {
      const short = stepPick(next.state, { type: "lines_short" });
      if (!isRefusal(short)) {
        for (const l of ctx.requests.lines(row.id)) {
          const ls = stepPickLine(lineState(l), { type: "abandon" });
          if (!isRefusal(ls)) ctx.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
        }
        next = applyPickEffects(tx, ctx, stock, next, short.state, short.effects, bins.hooks, actor);
      }
    }
    return next;
  }

  function lineStep(line: PickLine, input: { type: "pick" | "exception"; quantity: number }) {
    const step = stepPickLine(line, input);
    if (isRefusal(step)) {
      const left = outstanding(line);
      if (input.quantity > left) {
        throw new AppError(
          "validation_failed",
          `quantity ${input.quantity} is more than the ${left} outstanding`,
          [{ path: "quantity", message: `at most ${left}` }],
        );
      }
      throw new AppError("invalid_state", step.error.reason, [
        { path: "line", message: `line is ${line.state}` },
      ]);
    }
    return step.state;
  }

  return {
    /** A rack (MSU face) reached the station: its slots are known, and requests with stock there lock. */
    rackPresented(tx: Tx, msu: string, locations: string[]): void {
      for (const l of locations) {
        const known = stock.location(l);
        if (known && known.msu !== msu) {
          throw new AppError("validation_failed", `slot '${l}' belongs to MSU '${known.msu}'`, [
            { path: "locations", message: `'${l}' is a slot of MSU '${known.msu}'` },
          ]);
        }
        stock.upsertLocation(l, msu);
      }
      stock.presentRack(msu, tx.now);
      tx.announce("station", {});
      bins.lockAtPresentedRacks(tx, [msu]);
    },

    rackGone(tx: Tx, msu: string): void {
      if (!stock.removeRack(msu)) {
        throw new AppError("not_found", `rack '${msu}' is not at the station`, [
          { path: "msu", message: "not presented" },
        ]);
      }
      tx.announce("station", {});
    },

    pick(tx: Tx, input: PickTransactionInput): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PICK", input.externalServiceRequestId);
      const line = findLine(row, input.line);
      if (!stock.isPresented(input.location)) {
        throw new AppError("invalid_state", `slot '${input.location}' is not on a rack at the station`, [
          { path: "location", message: "present its rack first" },
        ]);
      }
      const res = ctx.requests
        .reservationsOfRequest(row.id)
        .find((r) => r.lineId === line.id && r.location === input.location);
      if (!res || res.quantity < input.quantity) {
        throw new AppError(
          "invalid_state",
          `line '${input.line}' holds ${res?.quantity ?? 0} at '${input.location}'`,
          [
            {
              path: "location",
              message: res ? `at most ${res.quantity} reserved here` : "no stock reserved for this line here",
            },
          ],
        );
      }
      const nextLine = lineStep(lineState(line), { type: "pick", quantity: input.quantity });
      const lines = ctx.requests.lines(row.id).map((l) => (l.id === line.id ? nextLine : lineState(l)));
      const step = stepPick(row.state as PickState, {
        type: "pick_transaction",
        lineId: String(line.id),
        location: input.location,
        itemId: String(res.itemId),
        quantity: input.quantity,
        last: summarizeLines(lines) === "complete",
      });
      if (isRefusal(step))
        throw new AppError("invalid_state", step.error.reason, [
          { path: "externalServiceRequestId", message: `request is ${row.state}` },
        ]);
      ctx.requests.updateLine({
        ...line,
        state: nextLine.state,
        picked: nextLine.picked,
        short: nextLine.short,
        updatedOn: tx.now,
      });
      return finish(tx, row, step, { user_name: op.user, pps_seat_name: op.seat });
    },

    /**
     * Missing, damaged or unscannable items: recorded as actuals with that state. The items are not
     * where stock said, so the reservation is released and the on-hand quantity written down there.
     */
    exception(tx: Tx, input: PickExceptionInput): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PICK", input.externalServiceRequestId);
      const line = findLine(row, input.line);
      const nextLine = lineStep(lineState(line), { type: "exception", quantity: input.quantity });
      const step = stepPick(row.state as PickState, {
        type: "exception",
        lineId: String(line.id),
        quantity: input.quantity,
        reason: input.reason,
      });
      if (isRefusal(step))
        throw new AppError("invalid_state", step.error.reason, [
          { path: "externalServiceRequestId", message: `request is ${row.state}` },
        ]);
      let left = input.quantity;
      let itemHint: number | null = null;
      const mine = ctx.requests.reservationsOfRequest(row.id).filter((r) => r.lineId === line.id);
      mine.sort((a, b) => Number(stock.isPresented(b.location)) - Number(stock.isPresented(a.location)));
      for (const r of mine) {
        if (left === 0) break;
        const take = Math.min(left, r.quantity);
        itemHint ??= r.itemId;
        ctx.requests.setReservation({ ...r, quantity: r.quantity - take });
        const at = stock.stockAt(r.location, r.itemId);
        if (at) {
          stock.reserve(r.location, r.itemId, -take);
          stock.setQuantity(r.location, r.itemId, Math.max(0, at.quantity - take));
        }
        left -= take;
      }
      ctx.requests.updateLine({
        ...line,
        state: nextLine.state,
        picked: nextLine.picked,
        short: nextLine.short,
        updatedOn: tx.now,
      });
      return finish(tx, row, step, { user_name: op.user, pps_seat_name: op.seat }, itemHint);
    },
  };
}

export type PickingService = ReturnType<typeof createPickingService>;
