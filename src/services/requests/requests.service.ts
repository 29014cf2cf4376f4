import { AppError } from "../domain/errors.js";
import {
  cancelSchema,
  createTypeSchema,
  pickCreateSchema,
  pickModifySchema,
  putCreateSchema,
  putModifySchema,
} from "../domain/service-request.schema.js";
import { validate } from "../domain/validate.js";
import type { PicksService } from "./picks.service.js";
import type { PutsService } from "./puts.service.js";
import { mustFind, type RequestContext, viewOf } from "./requests.support.js";
import type { Tx, UnitOfWork } from "./unit-of-work.js";

/** JSON with object keys sorted at every level: the same request always has the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The service-request endpoints (spec: Endpoints → Service requests). Each call is one transaction:
 * state, stock and notifications commit together.
 */
export function createRequestsService(
  ctx: RequestContext,
  runner: UnitOfWork,
  picks: PicksService,
  puts: PutsService,
) {
  /** Validation needs no transaction: a bad body never waits for, nor holds, the write lock. */
  function prepareCreate(body: unknown) {
    const { type } = validate(createTypeSchema, body);
    const input = type === "PICK" ? validate(pickCreateSchema, body) : validate(putCreateSchema, body);
    return { type, input, requestJson: canonicalJson(body) };
  }

  /**
   * Create PICK or PUT. The same create sent again returns the stored request (a safe retry); another
   * body under the same externalServiceRequestId and type is a 409 (station-practice C1).
   */
  function createIn(tx: Tx, { type, input, requestJson }: ReturnType<typeof prepareCreate>) {
    const existing = ctx.requests.find(type, input.externalServiceRequestId);
    if (existing) {
      if (existing.requestJson === requestJson)
        return { created: false, view: viewOf(existing, ctx) as unknown };
      throw new AppError(
        "duplicate_request",
        `a ${type} request '${input.externalServiceRequestId}' exists with a different body`,
        [{ path: "externalServiceRequestId", message: "already used for another request of this type" }],
      );
    }
    const view =
      input.type === "PICK" ? picks.create(tx, input, requestJson) : puts.create(tx, input, requestJson);
    return { created: true, view: view as unknown };
  }

  return {
    /** For callers already inside a transaction of their own (MQTT requests with their inbox row). */
    create(body: unknown): { created: boolean; view: unknown } {
      const prepared = prepareCreate(body);
      return runner.run((tx) => createIn(tx, prepared));
    },

    /** For HTTP: committed together with the other changes of this event-loop turn (group commit). */
    createAsync(body: unknown): Promise<{ created: boolean; view: unknown }> {
      const prepared = prepareCreate(body);
      return runner.runAsync((tx) => createIn(tx, prepared));
    },

    get(externalId: string, type: "PICK" | "PUT" | undefined) {
      if (type) return viewOf(mustFind(ctx, type, externalId), ctx);
      const rows = ctx.requests.findAnyType(externalId);
      if (rows.length === 0) {
        throw new AppError("not_found", `no service request '${externalId}'`, [
          { path: "externalServiceRequestId", message: "unknown" },
        ]);
      }
      if (rows.length > 1) {
        throw new AppError("validation_failed", `'${externalId}' names a PICK and a PUT request`, [
          { path: "type", message: "say which: PICK or PUT" },
        ]);
      }
      return viewOf(rows[0] as NonNullable<(typeof rows)[0]>, ctx);
    },

    /** Pick: asynchronous, answered by order_modification (202 + transaction id). Put: synchronous. */
    cancel(body: unknown): { status: 200 | 202; body: Record<string, unknown> } {
      const input = validate(cancelSchema, body);
      if (input.type === "PICK") {
        const id = runner.run((tx) => picks.cancel(tx, input.externalServiceRequestId, body));
        return {
          status: 202,
          body: { id, externalServiceRequestId: input.externalServiceRequestId, type: "PICK" },
        };
      }
      const row = runner.run((tx) => puts.cancel(tx, input.externalServiceRequestId));
      return { status: 200, body: { id: row.id, externalServiceRequestId: row.externalId, type: "PUT" } };
    },

    modify(body: unknown): { status: 200 | 202; body: Record<string, unknown> } {
      const { type } = validate(createTypeSchema, body);
      if (type === "PICK") {
        const input = validate(pickModifySchema, body);
        const id = runner.run((tx) => picks.modify(tx, input, body));
        return {
          status: 202,
          body: { id, externalServiceRequestId: input.externalServiceRequestId, type: "PICK" },
        };
      }
      const input = validate(putModifySchema, body);
      const row = runner.run((tx) => puts.modify(tx, input));
      return { status: 200, body: { id: row.id, externalServiceRequestId: row.externalId, type: "PUT" } };
    },
  };
}

export type RequestsService = ReturnType<typeof createRequestsService>;
