import type { Logger } from "pino";
import type { RequestRow } from "../../db/requests.repo.js";
import type { LastConfirmed, StockMove } from "../../domain/seat-correction.js";
import type { StagePutInput } from "../../domain/service-request.schema.js";
import type {
  PickExceptionInput,
  PickTransactionInput,
  PutExceptionInput,
  PutTransactionInput,
  RackPresentedInput,
  StationMode,
  StockAdjustInput,
} from "../../domain/station.schema.js";
import * as pick from "../pick/pick.service.js";
import type { PutDeps } from "../put/put.service.js";
import * as put from "../put/put.service.js";
import { viewOf } from "../request-record/request-record.js";
import type { StationDeps } from "../station/station.service.js";
import * as station from "../station/station.service.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";

export interface OperationsDeps {
  deps: StationDeps & PutDeps;
  unitOfWork: UnitOfWork;
  log: Logger;
}

/**
 * The station's operations, each one transaction through the unit of work: what the HTTP station API,
 * MQTT requests and the station engine (devices) call. One door for all of them keeps every entry
 * point's behaviour the same. It only binds the pick, put and station use cases to their dependencies.
 *
 * The operations that change a request return nothing: the station engine reads no answer. `viewed`
 * holds the same operations answering with the request's view afterwards, built in their transaction,
 * for the callers that return it to a client (the HTTP station API).
 */
export function createOperations({ deps, unitOfWork: uow, log }: OperationsDeps) {
  let stagingTimer: NodeJS.Immediate | undefined;

  /** The use cases that change one request, each returning the request's row afterwards. */
  const records = {
    pick: (input: PickTransactionInput, tx: Tx) => pick.recordPick(deps, input, tx),
    pickException: (input: PickExceptionInput, tx: Tx) => pick.recordPickException(deps, input, tx),
    put: (input: PutTransactionInput, tx: Tx) => put.recordPut(deps, input, tx),
    putException: (input: PutExceptionInput, tx: Tx) => put.recordPutException(deps, input, tx),
    release: (externalId: string, tx: Tx) => put.releasePut(deps, externalId, tx),
  };
  const done =
    <I>(record: (input: I, tx: Tx) => RequestRow) =>
    (input: I): void => {
      uow.run((tx) => {
        record(input, tx);
      });
    };
  const viewed =
    <I>(record: (input: I, tx: Tx) => RequestRow) =>
    (input: I) =>
      uow.run((tx) => viewOf(record(input, tx), deps));

  /** Staging is answered at once and checked just after (spec: stage_requested, then staged or failure). */
  function kickStaging(): void {
    if (stagingTimer) return;
    stagingTimer = setImmediate(() => {
      stagingTimer = undefined;
      try {
        uow.run((tx) => put.evaluateStaging(deps, tx));
      } catch (err) {
        log.error({ err }, "staging evaluation failed; it is retried on the next stage call or restart");
      }
    });
  }

  return {
    kickStaging,
    stop(): void {
      if (stagingTimer) clearImmediate(stagingTimer);
      stagingTimer = undefined;
    },
    login: (seat: string, user: string) => uow.run((tx) => station.login(deps, seat, user, tx)),
    logout: (seat: string) => uow.run((tx) => station.logout(deps, seat, tx)),
    setMode: (mode: StationMode) => uow.run((tx) => station.setMode(deps, mode, tx)),
    rackPresented: (input: RackPresentedInput) => uow.run((tx) => station.presentRack(deps, input, tx)),
    rackGone: (msu: string) => uow.run((tx) => station.removeRack(deps, msu, tx)),
    setStock: (input: StockAdjustInput) => uow.run((tx) => station.setStock(deps, input, tx)),
    /** A put's units moved to the slot they are really in, at the seat (docs/station.md#undo): one transaction. */
    moveStock: (move: StockMove) => uow.run((tx) => station.moveStock(deps, move, tx)),
    correctPut: (last: LastConfirmed | null, to: string) =>
      uow.run((tx) => station.correctPut(deps, last, to, tx)),
    pick: done(records.pick),
    pickException: done(records.pickException),
    printReady: (externalId: string) => uow.run((tx) => pick.printReady(deps, externalId, tx)),
    /** A box closed as full had its label printed (or skipped): its bin may be taken away. */
    boxLabelled: (binId: string) => uow.run((tx) => pick.boxLabelled(deps, binId, tx)),
    /** A bin holding a staged put has its staging withdrawn (stage_cancelled); any other is a pick bin. */
    binEmptied: (binId: string) =>
      uow.run((tx) => {
        if (!put.withdrawStagingInBin(deps, binId, tx)) pick.emptyBin(deps, binId, tx);
      }),
    /**
     * Bin full, box full (docs/station.md#bin-full-box-full): the units of a scan-required pick scanned
     * so far are picked into the full bin, then it is closed and its orders go on in new bins; one
     * transaction, so a refusal (no free bin) changes nothing.
     */
    binFull: (input: { pick?: PickTransactionInput; externalServiceRequestId: string; ppsBinId: string }) =>
      uow.run((tx) => {
        if (input.pick) pick.recordPick(deps, input.pick, tx);
        return pick.closeBinFull(deps, input, tx);
      }),
    /**
     * At each pick_after_time and pick_before_time (station/work-scheduler.ts): work past its deadline
     * ends not_fulfillable, work held back until now is released into free bins.
     */
    releaseHeldWork: () =>
      uow.run((tx) => {
        pick.expireOverdue(deps, tx);
        pick.assignBins(deps, tx);
      }),
    put: done(records.put),
    putException: done(records.putException),
    release: done(records.release),
    /** The request operations above, answering with the request's view afterwards. */
    viewed: {
      pick: viewed(records.pick),
      pickException: viewed(records.pickException),
      put: viewed(records.put),
      putException: viewed(records.putException),
      release: viewed(records.release),
    },
    /** Only the station API puts back staging, and it answers with the request's view. */
    putBackStage: (externalId: string, binId: string) =>
      uow.run((tx) => viewOf(put.putBackStage(deps, externalId, binId, tx), deps)),
    stagePut(input: StagePutInput): void {
      uow.run((tx) => put.requestStaging(deps, input, tx));
      kickStaging();
    },
  };
}

export type Operations = ReturnType<typeof createOperations>;
