import type { Logger } from "pino";
import type { StationMode } from "../db/station.repo.js";
import { AppError } from "../domain/errors.js";
import type { PickExceptionReason } from "../domain/pick.machine.js";
import type { PutExceptionState } from "../domain/put.machine.js";
import type { BinsService } from "./bins.service.js";
import type { PickingService } from "./picking.service.js";
import type { PutsService } from "./puts.service.js";
import type { RequestContext } from "./requests.support.js";
import { viewOf } from "./requests.support.js";
import type { StationService } from "./station.service.js";
import type { UnitOfWork } from "./unit-of-work.js";

/**
 * The station's operations, each one transaction: what the HTTP station API, MQTT requests and the
 * devices call. Putting them in one place keeps every entry point's behaviour the same.
 */
export function createOperations(deps: {
  ctx: RequestContext;
  runner: UnitOfWork;
  picking: PickingService;
  puts: PutsService;
  bins: BinsService;
  station: StationService;
  log: Logger;
  /** Whether an audit is running (it ties the station to audit mode). */
  auditBusy: () => boolean;
}) {
  const { ctx, runner, picking, puts, bins, station, log } = deps;
  let stagingTimer: NodeJS.Immediate | undefined;

  /** Staging is answered at once and checked just after (spec: stage_requested, then staged or failure). */
  function kickStaging(): void {
    if (stagingTimer) return;
    stagingTimer = setImmediate(() => {
      stagingTimer = undefined;
      try {
        runner.run((tx) => puts.evaluateStaging(tx));
      } catch (err) {
        log.error({ err }, "staging evaluation failed; it is retried on the next stage call or restart");
      }
    });
  }

  const itemBySku = (sku: string): number => {
    const ids = ctx.items.idsByKey("product_sku", sku, 2);
    if (ids.length !== 1) {
      throw new AppError(
        "validation_failed",
        ids.length ? `product_sku '${sku}' names several items` : `no item '${sku}'`,
        [{ path: "product_sku", message: ids.length ? "ambiguous" : "unknown item" }],
      );
    }
    return ids[0] as number;
  };

  return {
    kickStaging,
    stop(): void {
      if (stagingTimer) clearImmediate(stagingTimer);
      stagingTimer = undefined;
    },
    login: (seat: string, user: string) => runner.run((tx) => station.login(tx, seat, user)),
    logout: (seat: string) => runner.run((tx) => station.logout(tx, seat)),
    setMode: (mode: StationMode) => runner.run((tx) => station.setMode(tx, mode, deps.auditBusy)),
    rackPresented: (msu: string, locations: string[]) =>
      runner.run((tx) => picking.rackPresented(tx, msu, locations)),
    rackGone: (msu: string) => runner.run((tx) => picking.rackGone(tx, msu)),
    pick: (input: {
      externalServiceRequestId: string;
      line: string;
      location: string;
      quantity: number;
      seat?: string | undefined;
    }) => runner.run((tx) => viewOf(picking.pick(tx, input), ctx)),
    pickException: (input: {
      externalServiceRequestId: string;
      line: string;
      quantity: number;
      reason: PickExceptionReason;
      seat?: string | undefined;
    }) => runner.run((tx) => viewOf(picking.exception(tx, input), ctx)),
    put: (input: {
      externalServiceRequestId: string;
      product_sku: string;
      location: string;
      quantity: number;
      seat?: string | undefined;
    }) => runner.run((tx) => viewOf(puts.put(tx, input), ctx)),
    putException: (input: {
      externalServiceRequestId: string;
      product_sku: string;
      quantity: number;
      reason: PutExceptionState;
      seat?: string | undefined;
    }) => runner.run((tx) => viewOf(puts.exception(tx, input), ctx)),
    release: (externalId: string) => runner.run((tx) => viewOf(puts.release(tx, externalId), ctx)),
    putBackStage: (externalId: string, binId: string) =>
      runner.run((tx) => viewOf(puts.putBackStage(tx, externalId, binId), ctx)),
    stagePut(serviceRequestId: string, ppsId: string, binId: string): void {
      runner.run((tx) => puts.requestStaging(tx, serviceRequestId, ppsId, binId));
      kickStaging();
    },
    printReady: (externalId: string) => runner.run((tx) => bins.printReady(tx, externalId)),
    binEmptied: (binId: string) => runner.run((tx) => bins.emptied(tx, binId)),
    setStock: (input: { location: string; msu: string; product_sku: string; quantity: number }) =>
      runner.run((tx) => station.setStock(tx, { ...input, itemId: itemBySku(input.product_sku) })),
    /** Periodic: work held back by pick_after_time is released into free bins. */
    releaseHeldWork: () => runner.run((tx) => bins.assignBins(tx)),
  };
}

export type Operations = ReturnType<typeof createOperations>;
