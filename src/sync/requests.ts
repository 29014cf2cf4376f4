import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { z } from "zod";
import type { MqttRepo } from "../db/mqtt.repo.js";
import { AppError, isAppError } from "../domain/errors.js";
import { parseJsonBody } from "../domain/json-body.js";
import { validate } from "../domain/validate.js";
import type { UnitOfWork } from "../services/unit-of-work.js";
import { type ErrorBody, errorBody } from "../shell/error-body.js";
import { isRequestName, type RequestName } from "./topics.js";

/** One write operation reachable over MQTT: the HTTP body's schema and the use case. */
export interface RequestOperation {
  schema: z.ZodType;
  /** Runs inside the transaction that also records the response in the inbox. */
  run(body: unknown): unknown;
  /**
   * Changes nothing (`health_check`): answered afresh each time, outside any transaction, and not kept
   * in the inbox, so a repeated `transaction` gets today's answer, not a stored one.
   */
  readOnly?: boolean;
}

export type RequestOperations = Partial<Record<RequestName, RequestOperation>>;

/** Typed constructor for a table entry: `run` receives what `schema` outputs. */
export function operation<S extends z.ZodType>(
  schema: S,
  run: (body: z.output<S>) => unknown,
): RequestOperation {
  return { schema, run: (body) => run(body as z.output<S>) };
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
  now(): number;
  log: Logger;
  onHandled(name: string, status: "ok" | "error" | "repeat"): void;
}

const INTERNAL: ErrorBody = { status: 500, code: "internal_error", message: "internal error", errors: [] };

function failure(transaction: RequestResponse["transaction"], err: AppError): RequestResponse {
  return { transaction, status: "error", data: {}, error: errorBody(err) };
}

function readTransaction(v: unknown): string | number {
  if (typeof v === "string" && v.length >= 1 && v.length <= 128) return v;
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  throw new AppError(
    "validation_failed",
    "transaction: a string of 1 to 128 characters or an integer is required",
    [{ path: "transaction", message: "a string of 1 to 128 characters or an integer is required" }],
  );
}

/**
 * Requests from central (docs/architecture.md#interfaces; docs/mqtt.md#requests-and-responses): `request/<name>` carries the HTTP body
 * plus `transaction`; the answer goes to `response/<name>` with the same validation and error codes as
 * HTTP. Idempotent by `transaction`: the inbox row is written in the same transaction as the change, so
 * a repeated request gets the stored response and changes nothing twice. Answers to bad input are
 * stored too (they would be the same again); a refusal that may pass later (503) is not.
 */
export function createRequestHandler(deps: RequestHandlerDeps) {
  type Answer = { text: string; outcome: "ok" | "error" | "repeat" };
  const answer = (r: RequestResponse): Answer => ({ text: JSON.stringify(r), outcome: r.status });

  function read(name: string, payload: Buffer): Answer {
    let transaction: RequestResponse["transaction"] = null;
    try {
      if (payload.length > deps.bodyLimitBytes)
        throw new AppError("payload_too_large", `the request is larger than ${deps.bodyLimitBytes} bytes`);
      const parsed = parseJsonBody(payload.toString("utf8"), "request");
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new AppError("validation_failed", "the request must be a JSON object", [
          { path: "(body)", message: "expected an object" },
        ]);
      const { transaction: raw, ...body } = parsed as Record<string, unknown>;
      transaction = readTransaction(raw);
      if (!isRequestName(name)) throw new AppError("route_not_found", `request/${name}: no such request`);
      return handle(name, transaction, body);
    } catch (e) {
      if (isAppError(e)) return answer(failure(transaction, e));
      deps.log.error({ err: e, request: name }, "mqtt request failed");
      return answer({ transaction, status: "error", data: {}, error: INTERNAL });
    }
  }

  function handle(name: RequestName, transaction: string | number, body: Record<string, unknown>): Answer {
    // 7 and "7" are different transactions; the key keeps the type.
    const key = `${typeof transaction === "number" ? "n" : "s"}:${transaction}`;
    const hash = createHash("sha256").update(name).update("\n").update(JSON.stringify(body)).digest("hex");
    const op = deps.operations[name];
    if (op?.readOnly) {
      const data = op.run(validate(op.schema, body));
      return answer({ transaction, status: "ok", data: data ?? {}, error: null });
    }
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
    const record = (r: RequestResponse): Answer => {
      const a = answer(r);
      deps.mqtt.inboxPut({ txnId: key, name, requestHash: hash, response: a.text, createdAt: deps.now() });
      return a;
    };
    try {
      const input = validate(op.schema, body);
      return deps.unitOfWork.run(() =>
        record({ transaction, status: "ok", data: op.run(input) ?? {}, error: null }),
      );
    } catch (e) {
      if (!isAppError(e) || e.kind === "unavailable") throw e;
      return record(failure(transaction, e));
    }
  }

  return {
    /** The response text for a request on `request/<name>` (processed synchronously, in arrival order). */
    process(name: string, payload: Buffer): string {
      const { text, outcome } = read(name, payload);
      deps.onHandled(isRequestName(name) ? name : "unknown", outcome);
      return text;
    },
  };
}

export type RequestHandler = ReturnType<typeof createRequestHandler>;
