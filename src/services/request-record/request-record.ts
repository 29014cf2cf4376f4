import type { ItemsRepo } from "../../db/items.repo.js";
import type { ActualRow, LineRow, RequestRow, RequestsRepo } from "../../db/requests.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import { AppError } from "../../domain/errors.js";
import { PICK_LINE_STATUS, type PickLineState } from "../../domain/pick-line.machine.js";
import { type PutExpectations, type RequestData, requestView } from "../../domain/service-request.view.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";

/**
 * The service request as pick, put and the station read it: loading a request whole into its view,
 * finding it by id, the item attributes its actuals carry, who acts at the station, and writing its
 * notification. A folder of its own below the aggregates, because no one of them owns it: pick/, put/,
 * the service-request endpoints (requests/, which sit above pick/ and put/), operations/, station/ and
 * work-order/ all read a request through it, each entering by this file (its folder's door).
 */
export interface RequestContext {
  requests: RequestsRepo;
  items: ItemsRepo;
  station: StationRepo;
  ppsId: string;
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** A request's lines and actuals as the change that wrote them has them: its view needs no read back. */
export interface Written {
  lines: LineRow[];
  actuals: ActualRow[];
}

export function toData(
  row: RequestRow,
  lines: LineRow[],
  ctx: RequestContext,
  actuals: ActualRow[] = ctx.requests.actuals(row.id),
): RequestData {
  return {
    id: row.id,
    externalId: row.externalId,
    type: row.type,
    state: row.state,
    status: row.status,
    attributes: parseJson<Record<string, unknown>>(row.attributesJson),
    execution: parseJson<Record<string, unknown>>(row.executionJson),
    expectations: parseJson<PutExpectations>(row.expectationsJson),
    lines: lines.map((l) => ({
      id: l.id,
      externalId: l.externalId,
      state: l.state,
      status: PICK_LINE_STATUS[l.state as PickLineState] ?? "CREATED",
      expected: l.expected,
      filters: JSON.parse(l.filtersJson) as string[],
      attributes: parseJson<Record<string, unknown>>(l.attributesJson),
      expectationIds: JSON.parse(l.expectationIdsJson) as { containerId: number; productId: number },
      createdOn: l.createdOn,
      updatedOn: l.updatedOn,
    })),
    actuals: actuals.map((a) => ({
      id: a.id,
      productId: a.productId,
      lineId: a.lineId,
      state: a.state,
      location: a.location,
      itemId: a.itemId,
      quantity: a.quantity,
      product: JSON.parse(a.productJson) as Record<string, unknown>,
      createdOn: a.createdOn,
    })),
    receivedOn: row.receivedOn,
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
  };
}

/** The request's view; `written` when the caller has just written its lines and actuals. */
export function viewOf(row: RequestRow, ctx: RequestContext, written?: Written) {
  if (written)
    return requestView(toData(row, row.type === "PICK" ? written.lines : [], ctx, written.actuals));
  return requestView(toData(row, row.type === "PICK" ? ctx.requests.lines(row.id) : [], ctx));
}

/** The request by its externalServiceRequestId and type, or a 404 naming the id. */
export function mustFind(
  ctx: RequestContext,
  type: "PICK" | "PUT",
  externalId: string,
  path = "externalServiceRequestId",
): RequestRow {
  const row = ctx.requests.find(type, externalId);
  if (!row) {
    throw new AppError("not_found", `no ${type} service request '${externalId}'`, [
      { path, message: `unknown ${type} externalServiceRequestId` },
    ]);
  }
  return row;
}

/** The product attributes that identify an item in actuals: its `pdfa_values` (domain/item.identity.ts). */
export function pdfaValues(ctx: RequestContext, itemId: number): Record<string, unknown> {
  return ctx.items.valuesOf(itemId) ?? {};
}

/** Writes the request's notification with its full current state, and announces the change. */
export function announceRequest(
  tx: Tx,
  ctx: RequestContext,
  row: RequestRow,
  notify?: "order_information" | "put_information",
) {
  if (notify) tx.notify(notify, viewOf(row, ctx));
  tx.announce("request", { type: row.type, externalServiceRequestId: row.externalId });
}

/** Who is at the station: the named seat, else the first logged-in seat. */
export function operator(ctx: RequestContext, seat?: string): { seat: string; user: string } | undefined {
  const seats = ctx.station.seats().filter((s) => s.userName !== null);
  const s = seat ? seats.find((x) => x.seat === seat) : seats[0];
  return s ? { seat: s.seat, user: s.userName as string } : undefined;
}

/**
 * The operator who acts at the station, which must be in `mode`: a 409 `wrong_mode` or `not_logged_in`
 * otherwise (docs/architecture.md#flows: picks and puts are done at a logged-in seat of a station in that mode).
 */
export function operatorIn(
  ctx: RequestContext,
  mode: "pick" | "put",
  seat?: string,
): { seat: string; user: string } {
  const current = ctx.station.mode();
  if (current !== mode) {
    throw new AppError("wrong_mode", `the station is in ${current} mode`, [
      { path: "mode", message: `${mode === "pick" ? "picking" : "putting"} needs ${mode} mode` },
    ]);
  }
  const op = operator(ctx, seat);
  if (!op) {
    throw new AppError(
      "not_logged_in",
      seat ? `no operator is logged in at seat '${seat}'` : "no operator is logged in",
      [{ path: "seat", message: "log in at a seat first" }],
    );
  }
  return op;
}

/** Spec: bin_complete `ppsId` is an integer; a station id that is not a number is passed as given. */
export function ppsIdValue(ppsId: string): number | string {
  return /^\d+$/.test(ppsId) ? Number(ppsId) : ppsId;
}
