import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { z } from "zod";
import type { MqttRepo } from "../db/mqtt.repo.js";
import { type ErrorBody, errorBody } from "../domain/error-body.js";
import { AppError, isAppError } from "../domain/errors.js";
import { parseJsonBody } from "../domain/json-body.js";
import { longerThan } from "../domain/text.js";
import { type BucketRate, type RateHold, rateHold, STORED_TERMS } from "../domain/token-bucket.js";
import { validate } from "../domain/validate.js";
import type { RefusalReason } from "../metrics.js";
import type { UnitOfWork } from "../services/unit-of-work/unit-of-work.js";
import { isRequestName, type RequestName } from "./topics.js";

/** What an answer may take: the bytes its `data` may have as JSON text. */
export interface AnswerRoom {
  dataBytes: number;
  /**
   * What `data` may take with the longest `transaction` allowed: the same for every answer on a link,
   * so that what is cut to fit (a notification's replay parts) is cut alike whatever asks
   * (docs/mqtt.md#large-notifications-by-replay). At most `dataBytes`.
   */
  steadyDataBytes: number;
}

/** One operation reachable over MQTT: the body's schema and the use case. */
export interface RequestOperation {
  schema: z.ZodType;
  /**
   * Reads only: answered afresh each time, outside the inbox and any transaction, and sized to fit
   * `room` (docs/mqtt.md#replaying-notifications). A write runs inside the transaction that also
   * records its response in the inbox.
   */
  readOnly?: true;
  /**
   * Work outside the database that takes a while (a backup file written), awaited before the
   * transaction that records the answer; its result is `run`'s third argument. Requests that arrive
   * meanwhile wait their turn (sync.ts), so they are still answered in arrival order.
   */
  before?(body: unknown): Promise<unknown>;
  /**
   * Work that grows with what is asked (an inventory report): held to the costly routes' rate, with all
   * of the station's MQTT requests one caller, since a central broker does not say who published
   * (docs/limits.md).
   */
  costly?: true;
  /** Stores what it is sent (an item, a catalog): held to the stored bytes a second, by its payload's size. */
  storesBody?: true;
  run(body: unknown, room: AnswerRoom, prepared?: unknown): unknown;
}

export type RequestOperations = Partial<Record<RequestName, RequestOperation>>;

/** Typed constructor for a write: `run` receives what `schema` outputs. */
export function operation<S extends z.ZodType>(
  schema: S,
  run: (body: z.output<S>) => unknown,
): RequestOperation {
  return { schema, run: (body) => run(body as z.output<S>) };
}

/** The same operation, held to the costly routes' rate (`costly`). */
export function costly(op: RequestOperation): RequestOperation {
  return { ...op, costly: true };
}

/** The same operation, held to the stored bytes a second (`storesBody`). */
export function storing(op: RequestOperation): RequestOperation {
  return { ...op, storesBody: true };
}

/** Typed constructor for a read-only request whose answer must fit `room`. */
export function query<S extends z.ZodType>(
  schema: S,
  run: (body: z.output<S>, room: AnswerRoom) => unknown,
): RequestOperation {
  return { schema, readOnly: true, run: (body, room) => run(body as z.output<S>, room) };
}

/** A table entry whose answer is what `work` resolves with (done outside the database, see `before`). */
export function slowOperation<S extends z.ZodType>(
  schema: S,
  work: (body: z.output<S>) => Promise<unknown>,
): RequestOperation {
  return { schema, before: (body) => work(body as z.output<S>), run: (_body, _room, prepared) => prepared };
}

/** docs/architecture.md#interfaces: `{ transaction, status: "ok" | "error", data, error }`. */
export interface RequestResponse {
  transaction: string | number | null;
  status: "ok" | "error";
  data: unknown;
  error: ErrorBody | null;
}

export interface RequestHandlerDeps {
  /** The operation and the inbox row commit in one transaction. */
  unitOfWork: Pick<UnitOfWork, "run">;
  mqtt: MqttRepo;
  operations: RequestOperations;
  /** The HTTP body limit: the same request is refused the same way on both paths. */
  bodyLimitBytes: number;
  /** The largest answer a read-only request may make, in bytes (lowered to the broker's packet limit). */
  answerBytes: number;
  /** The costly routes' rate (http.costlyRequestsPerSecond, http.costlyBurst); none: not held. */
  costlyRate?: BucketRate | undefined;
  /** The stored bytes' rate (http.storedBytesPerSecond, http.storedBurstBytes); none: not held. */
  storedRate?: BucketRate | undefined;
  now(): number;
  log: Logger;
  onHandled(name: string, status: "ok" | "error" | "repeat"): void;
  /** A request refused by a rate (counted in budget_refusals_total by `reason`). */
  onRateLimited?(reason: RateLimitReason): void;
}

/** A request refused by the costly requests' rate, or by the stored bytes'. */
type RateLimitReason = Extract<RefusalReason, "mqtt_rate" | "mqtt_stored_bytes">;

/** Kept free in a packet for the fixed header, the topic, the packet id and MQTT 5 properties. */
const PACKET_OVERHEAD = 1024;

const INTERNAL: ErrorBody = { status: 500, code: "internal_error", message: "internal error", errors: [] };

function failure(transaction: RequestResponse["transaction"], err: AppError): RequestResponse {
  return { transaction, status: "error", data: {}, error: errorBody(err) };
}

function readTransaction(v: unknown): string | number {
  if (typeof v === "string" && v.length >= 1 && !longerThan(v, 128)) return v;
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  throw new AppError(
    "validation_failed",
    "transaction: a string of 1 to 128 characters or an integer is required",
    [{ path: "transaction", message: "a string of 1 to 128 characters or an integer is required" }],
  );
}

/** The request's JSON object, or the refusal of a payload too large, not JSON, or not an object. */
function parseRequest(payload: Buffer, bodyLimitBytes: number): Record<string, unknown> {
  if (payload.length > bodyLimitBytes)
    throw new AppError("payload_too_large", `the request is larger than ${bodyLimitBytes} bytes`);
  const parsed = parseJsonBody(payload.toString("utf8"), "request");
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new AppError("validation_failed", "the request must be a JSON object", [
      { path: "(body)", message: "expected an object" },
    ]);
  return parsed as Record<string, unknown>;
}

/** An answer's members but `data`, with the longest transaction (128 characters escaped as `\u0000`). */
const LONGEST_REST =
  Buffer.byteLength(
    JSON.stringify({ transaction: "\u0000".repeat(128), status: "ok", data: null, error: null }),
  ) - 4;

/** A read-only request's answer, its `data` sized to what is left of `answerBytes`. */
function queryResponse(
  op: RequestOperation,
  transaction: string | number,
  body: Record<string, unknown>,
  answerBytes: number,
): RequestResponse {
  const input = validate(op.schema, body);
  // what the rest of the answer takes: `{"transaction":…,"status":"ok","data":null,"error":null}`
  const rest = Buffer.byteLength(JSON.stringify({ transaction, status: "ok", data: null, error: null })) - 4;
  return {
    transaction,
    status: "ok",
    data: op.run(input, { dataBytes: answerBytes - rest, steadyDataBytes: answerBytes - LONGEST_REST }) ?? {},
    error: null,
  };
}

/**
 * Requests from central (docs/architecture.md#interfaces; docs/mqtt.md#requests-and-responses): `request/<name>` carries the HTTP body
 * plus `transaction`; the answer goes to `response/<name>` with the same validation and error codes as
 * HTTP. Idempotent by `transaction`: the inbox row is written in the same transaction as the change, so
 * a repeated request gets the stored response and changes nothing twice. Answers to bad input are
 * stored too (they would be the same again); a refusal that may pass later (503) is not. A read-only
 * request (`replay_notifications`, `health_check`) changes nothing, so it is answered afresh each time and never stored:
 * its answer may be large, and a repeat may rightly see newer notifications.
 */
export function createRequestHandler(deps: RequestHandlerDeps) {
  type Answer = { text: string; outcome: "ok" | "error" | "repeat" };
  const answer = (r: RequestResponse): Answer => ({ text: JSON.stringify(r), outcome: r.status });
  // all of the station's MQTT requests are one caller: a central broker does not say who published
  const costlyHold = deps.costlyRate
    ? rateHold(deps.costlyRate, "the station's costly MQTT requests")
    : undefined;
  const storedHold = deps.storedRate
    ? rateHold(deps.storedRate, "the station's stored MQTT requests", STORED_TERMS)
    : undefined;

  /** Takes `cost` from the station's bucket of `rate` (none: not held), or counts the refusal and throws it. */
  function hold(rate: RateHold | undefined, reason: RateLimitReason, cost = 1): void {
    const refusal = rate?.take("mqtt", deps.now(), cost);
    if (!refusal) return;
    deps.onRateLimited?.(reason);
    throw refusal;
  }

  /** The answer to a request that failed: its code when it is an AppError, else internal_error (logged). */
  function failed(name: string, transaction: RequestResponse["transaction"], e: unknown): Answer {
    if (isAppError(e)) return answer(failure(transaction, e));
    deps.log.error({ err: e, request: name }, "mqtt request failed");
    return answer({ transaction, status: "error", data: {}, error: INTERNAL });
  }

  function read(name: string, payload: Buffer, answerBytes: number): Answer | Promise<Answer> {
    let transaction: RequestResponse["transaction"] = null;
    try {
      const { transaction: raw, ...body } = parseRequest(payload, deps.bodyLimitBytes);
      transaction = readTransaction(raw);
      if (!isRequestName(name)) throw new AppError("route_not_found", `request/${name}: no such request`);
      const handled = handle(name, transaction, body, answerBytes, payload.length);
      const t = transaction;
      return handled instanceof Promise ? handled.catch((e: unknown) => failed(name, t, e)) : handled;
    } catch (e) {
      return failed(name, transaction, e);
    }
  }

  function handle(
    name: RequestName,
    transaction: string | number,
    body: Record<string, unknown>,
    answerBytes: number,
    payloadBytes: number,
  ): Answer | Promise<Answer> {
    const op = deps.operations[name];
    if (op?.readOnly) return answer(queryResponse(op, transaction, body, answerBytes));
    // 7 and "7" are different transactions; the key keeps the type.
    const key = `${typeof transaction === "number" ? "n" : "s"}:${transaction}`;
    const hash = createHash("sha256").update(name).update("\n").update(JSON.stringify(body)).digest("hex");
    const seen = deps.mqtt.inboxGet(key);
    if (seen) {
      if (seen.requestHash === hash) return { text: seen.response, outcome: "repeat" };
      throw new AppError(
        "duplicate_request",
        `transaction ${transaction} was already used for another request (${seen.name}); use a new transaction`,
        [{ path: "transaction", message: "already used with another request" }],
      );
    }
    if (!op) throw new AppError("not_ready", `request/${name} is not available on this station yet`);
    // before the work and outside the inbox: a repeat after the wait does the work once
    if (op.costly) hold(costlyHold, "mqtt_rate");
    if (op.storesBody) hold(storedHold, "mqtt_stored_bytes", payloadBytes);
    const record = (r: RequestResponse): Answer => {
      const a = answer(r);
      deps.mqtt.inboxPut({ txnId: key, name, requestHash: hash, response: a.text, createdAt: deps.now() });
      return a;
    };
    const ok = (input: unknown, prepared?: unknown): Answer =>
      deps.unitOfWork.run(() =>
        record({
          transaction,
          status: "ok",
          data: op.run(input, { dataBytes: answerBytes, steadyDataBytes: answerBytes }, prepared) ?? {},
          error: null,
        }),
      );
    const refused = (e: unknown): Answer => {
      if (!isAppError(e) || e.kind === "unavailable") throw e;
      return record(failure(transaction, e));
    };
    try {
      const input = validate(op.schema, body);
      if (!op.before) return ok(input);
      // not stored when the work fails (a full disk may have room later): a retry does it again
      return op.before(input).then((prepared) => ok(input, prepared));
    } catch (e) {
      return refused(e);
    }
  }

  return {
    /**
     * The response text for a request on `request/<name>`: at once, or a promise for an operation with
     * work outside the database (`before`); the caller answers them one at a time, in arrival order.
     * `packetLimit` is the broker's Maximum Packet Size, when it announced one.
     */
    process(name: string, payload: Buffer, packetLimit?: number): string | Promise<string> {
      const room = Math.min(deps.answerBytes, (packetLimit ?? Number.POSITIVE_INFINITY) - PACKET_OVERHEAD);
      const done = ({ text, outcome }: Answer): string => {
        deps.onHandled(isRequestName(name) ? name : "unknown", outcome);
        return text;
      };
      const answered = read(name, payload, room);
      return answered instanceof Promise ? answered.then(done) : done(answered);
    },
  };
}

export type RequestHandler = ReturnType<typeof createRequestHandler>;
