import type { LineRow, NewLine, RequestRow } from "../../db/requests.repo.js";
import { AppError, type FieldError } from "../../domain/errors.js";
import { type Filter, parseFilter } from "../../domain/filter.js";
import { createPick as initialPick, PICK_STATUS } from "../../domain/pick.machine.js";
import { createPickLine } from "../../domain/pick-line.machine.js";
import { isPickPack } from "../../domain/pick-pack.js";
import type { PickCreateInput, PickLineInput } from "../../domain/service-request.schema.js";
import { limitExceeded, type PickLimits } from "../../domain/work-limits.js";
import { parseSpecTimestamp, SIMPLE_PRIORITIES } from "../../domain/work-order.js";
import { type RequestContext, viewOf } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { allocatePick } from "./pick-allocation.js";
import type { PickDeps } from "./pick-deps.js";
import { checkOlpns } from "./pick-olpn.js";

const FILTER_PATH = (i: number, j: number) =>
  `serviceRequests.${i}.expectations.containers.0.products.0.productAttributes.filter_parameters.${j}`;

export interface Scheduling {
  priorityRank: number;
  pickBefore: number | null;
  pickAfter: number | null;
}

/** At most `pick.maxLines` lines (a 413 naming the limit), checked before anything else is read. */
export function checkLineCount(limits: PickLimits, count: number): void {
  if (count > limits.maxLines)
    throw limitExceeded(
      "serviceRequests",
      "pick.maxLines",
      limits.maxLines,
      count,
      "pick lines in one request",
    );
}

/** Filters must parse and name unique attributes: a 400 naming the line and the string otherwise. */
export function checkLines(ctx: PickDeps, lines: PickLineInput[]): Filter[][] {
  checkLineCount(ctx.pick, lines.length);
  return checkFilters(
    ctx,
    lines.map((line) => ({
      id: line.externalServiceRequestId,
      filters: line.expectations.containers[0]?.products[0]?.productAttributes.filter_parameters,
    })),
  );
}

/**
 * The filter strings of each line (`serviceRequests.N`), parsed; lines without filters give none. An
 * `in` list longer than `pick.maxFilterValues` is a 413 naming the string, before any is resolved.
 */
export function checkFilters(
  ctx: PickDeps,
  lines: Array<{ id: string; filters: string[] | undefined }>,
): Filter[][] {
  const errors: FieldError[] = [];
  let code: "invalid_filter" | "unsupported_operator" | "unknown_search_key" = "invalid_filter";
  const parsed = lines.map(
    (line, i) =>
      line.filters?.map((text, j) => {
        const p = parseFilter(text);
        if (!p.ok) {
          code = p.error.code;
          errors.push({
            path: FILTER_PATH(i, j),
            message: `line '${line.id}': '${text}': ${p.error.reason} (at ${p.error.position})`,
          });
          return undefined;
        }
        const max = ctx.pick.maxFilterValues;
        if (p.filter.operator === "in" && p.filter.values.length > max) {
          throw limitExceeded(
            FILTER_PATH(i, j),
            "pick.maxFilterValues",
            max,
            p.filter.values.length,
            `values in the in list of line '${line.id}'`,
          );
        }
        if (p.filter.key !== "product_sku" && !ctx.items.isKnownKey(p.filter.key)) {
          code = "unknown_search_key";
          errors.push({
            path: FILTER_PATH(i, j),
            message: `line '${line.id}': '${text}': '${p.filter.key}' is not a unique attribute of any item schema`,
          });
          return undefined;
        }
        return p.filter;
      }) ?? [],
  );
  if (errors.length) throw new AppError(code, errors[0]?.message ?? "bad filter", errors);
  return parsed as Filter[][];
}

/** Priority and the pick window, read in the station's time zone; a 400 naming the attribute otherwise. */
export function scheduling(attrs: PickCreateInput["attributes"], timeZone: string): Scheduling {
  const errors: FieldError[] = [];
  const time = (name: "pick_before_time" | "pick_after_time"): number | null => {
    const text = attrs?.[name];
    if (text === undefined) return null;
    const p = parseSpecTimestamp(text, timeZone);
    if (p.ok) return p.ms;
    errors.push({ path: `attributes.${name}`, message: p.error.reason });
    return null;
  };
  const s = {
    priorityRank: SIMPLE_PRIORITIES.indexOf(attrs?.simple_priority ?? "normal"),
    pickBefore: time("pick_before_time"),
    pickAfter: time("pick_after_time"),
  };
  if (errors.length)
    throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
  return s;
}

/**
 * The scheduler wakes at pick_after_time (held work is released) and at pick_before_time (work not
 * started by then ends not_fulfillable, pick-deadline.ts); critical work is bound by neither.
 */
export function announceHeld(sched: Scheduling, tx: Tx): void {
  if (sched.priorityRank === 0) return;
  for (const at of [sched.pickAfter, sched.pickBefore]) {
    if (at !== null && at > tx.now) tx.announce("heldWork", { releaseAt: at });
  }
}

/** Inserts a new request's lines; returns them as stored. */
export function insertLines(
  ctx: RequestContext,
  requestId: number,
  lines: PickLineInput[],
  tx: Tx,
  firstPosition = 0,
): LineRow[] {
  return lines.map((line, i) => {
    const position = firstPosition + i;
    const product = line.expectations.containers[0]?.products[0];
    const fresh = createPickLine(product?.productQuantity ?? 0);
    const row: NewLine = {
      requestId,
      externalId: line.externalServiceRequestId,
      position,
      state: fresh.state,
      expected: fresh.expected,
      picked: 0,
      short: 0,
      filtersJson: JSON.stringify(product?.productAttributes.filter_parameters ?? []),
      attributesJson: JSON.stringify(line.attributes ?? null),
      expectationIdsJson: JSON.stringify({
        containerId: ctx.requests.nextEntityId("container"),
        productId: ctx.requests.nextEntityId("product"),
      }),
      createdOn: tx.now,
      updatedOn: tx.now,
    };
    return { id: ctx.requests.insertLine(row), ...row };
  });
}

/** What is checked of a new pick before anything is written: its filters and its schedule (400s). */
export interface PickPlan {
  filters: Filter[][];
  sched: Scheduling;
}

export function planPick(deps: PickDeps, input: PickCreateInput): PickPlan {
  checkOlpns(deps, input.serviceRequests, isPickPack(input.serviceRequests, deps.pick.packAttributes));
  return {
    filters: checkLines(deps, input.serviceRequests),
    sched: scheduling(input.attributes, deps.timeZone),
  };
}

/**
 * A new pick (spec: Pick request): inserted in state created, then allocated against free stock in the
 * same transaction. Answers the request as created (the allocation follows as order_information), or
 * null when a PICK request with this id exists (nothing is written then). The views are built from
 * what was just written, without reading it back.
 */
export function createPick(
  deps: PickDeps,
  input: PickCreateInput,
  plan: PickPlan,
  requestJson: string,
  tx: Tx,
): ReturnType<typeof viewOf> | null {
  const start = initialPick();
  const fresh: Omit<RequestRow, "id"> = {
    externalId: input.externalServiceRequestId,
    type: "PICK",
    state: start.state,
    status: PICK_STATUS[start.state],
    requestJson,
    attributesJson: JSON.stringify(input.attributes ?? null),
    expectationsJson: null,
    isPack: isPickPack(input.serviceRequests, deps.pick.packAttributes) ? 1 : 0,
    binId: null,
    ...plan.sched,
    executionJson: null,
    receivedOn: tx.now,
    createdOn: tx.now,
    updatedOn: tx.now,
    stateClearedOn: null,
  };
  const id = deps.requests.insertUnlessTaken(fresh);
  if (id === null) return null;
  const lines = insertLines(deps, id, input.serviceRequests, tx);
  announceHeld(plan.sched, tx);
  const row: RequestRow = { id, ...fresh };
  const created = viewOf(row, deps, { lines, actuals: [] });
  allocatePick(deps, row, tx, { lines, filters: plan.filters });
  return created;
}
