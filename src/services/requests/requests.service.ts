import { AppError } from "../../domain/errors.js";
import {
  cancelSchema,
  createTypeSchema,
  pickCreateSchema,
  pickModifySchema,
  putCreateSchema,
  putModifySchema,
} from "../../domain/service-request.schema.js";
import { validate } from "../../domain/validate.js";
import { cancelPick, createPick, modifyPick, type PickDeps, planPick } from "../pick/pick.service.js";
import { cancelPut, createPut, modifyPut, type PutDeps, resolveExpectations } from "../put/put.service.js";
import { mustFind, type RequestContext, viewOf } from "../request-record/request-record.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";

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

export type RequestDeps = PickDeps & PutDeps;

/**
 * How a cancel or modify was taken: a PICK change is `accepted` and answered later by its
 * order_modification (spec: asynchronous), a PUT change is `done` at once. The shells choose the
 * status (HTTP 202 or 200); `body` names the request and, for a PICK, the transaction id.
 */
export interface RequestChange {
  outcome: "accepted" | "done";
  body: { id: number; externalServiceRequestId: string; type: "PICK" | "PUT" };
}

/** Validation needs no transaction: a bad body never waits for, nor holds, the write lock. */
function prepareCreate(body: unknown) {
  // validated once, by the schema its type names; createTypeSchema only words a bad or missing type
  const named = (body as { type?: unknown } | null)?.type;
  if (named !== "PICK" && named !== "PUT") validate(createTypeSchema, body);
  const input = named === "PICK" ? validate(pickCreateSchema, body) : validate(putCreateSchema, body);
  return { type: input.type, input, requestJson: canonicalJson(body) };
}

type Prepared = ReturnType<typeof prepareCreate>;

/** A check made before anything is written; when it fails and the id is taken, the stored request answers. */
function checked<T>(deps: RequestDeps, p: Prepared, check: () => T): T | null {
  try {
    return check();
  } catch (e) {
    if (deps.requests.find(p.type, p.input.externalServiceRequestId)) return null;
    throw e;
  }
}

/** The new request's view, or null when a request of this type and id exists. */
function createNew(deps: RequestDeps, p: Prepared, tx: Tx): unknown {
  const { input, requestJson } = p;
  if (input.type === "PICK") {
    const plan = checked(deps, p, () => planPick(deps, input));
    return plan && createPick(deps, input, plan, requestJson, tx);
  }
  const expectations = checked(deps, p, () => resolveExpectations(deps, input.expectations));
  return expectations && createPut(deps, input, expectations, requestJson, tx);
}

/**
 * The create answer's state (spec: Service Request table, "uppercase `CREATED` right after creation,
 * lowercase names in notifications"; Create row, "`status` and `state` `CREATED`"): a request still in
 * `created` is answered as `CREATED`, the first create and its idempotent repeat alike. Every read
 * after (GET) and every notification carries the lowercase name.
 */
function createAnswer(view: unknown): unknown {
  const v = view as { state?: unknown };
  return v.state === "created" ? { ...v, state: "CREATED" } : view;
}

/**
 * Create PICK or PUT. The same create sent again returns the stored request (a safe retry); another
 * body under the same externalServiceRequestId and type is a 409 (integrators retry creates after a timeout: docs/interface.md#service-request-endpoints). The insert
 * comes first and the stored request is read only when the id is taken: a new request costs no read.
 */
export function createRequest(deps: RequestDeps, prepared: Prepared, tx: Tx) {
  const { type, input, requestJson } = prepared;
  const view = createNew(deps, prepared, tx);
  if (view !== null) return { created: true, view: createAnswer(view) };
  const existing = mustFind(deps, type, input.externalServiceRequestId);
  if (existing.requestJson === requestJson)
    return { created: false, view: createAnswer(viewOf(existing, deps)) };
  throw new AppError(
    "duplicate_request",
    `a ${type} request '${input.externalServiceRequestId}' exists with a different body`,
    [{ path: "externalServiceRequestId", message: "already used for another request of this type" }],
  );
}

/** The request by id; without a type the id must name one request only. */
export function getRequest(ctx: RequestContext, externalId: string, type: "PICK" | "PUT" | undefined) {
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
}

/**
 * The service-request endpoints' door (spec: Endpoints → Service requests): it validates the body, then
 * runs the PICK or PUT use case as one transaction: state, stock and notifications commit together.
 */
export function createRequestsService(deps: RequestDeps, uow: UnitOfWork) {
  const picked = (id: number, externalServiceRequestId: string): RequestChange => ({
    outcome: "accepted",
    body: { id, externalServiceRequestId, type: "PICK" },
  });
  const done = (row: { id: number; externalId: string }): RequestChange => ({
    outcome: "done",
    body: { id: row.id, externalServiceRequestId: row.externalId, type: "PUT" },
  });
  return {
    /** One transaction now (or joined to the caller's: MQTT requests with their inbox row). */
    create(body: unknown): { created: boolean; view: unknown } {
      const prepared = prepareCreate(body);
      return uow.run((tx) => createRequest(deps, prepared, tx));
    },
    /** For HTTP: committed together with the other changes of this event-loop turn (group commit). */
    createAsync(body: unknown): Promise<{ created: boolean; view: unknown }> {
      const prepared = prepareCreate(body);
      return uow.runAsync((tx) => createRequest(deps, prepared, tx));
    },
    get: (externalId: string, type: "PICK" | "PUT" | undefined) => getRequest(deps, externalId, type),
    cancel(body: unknown): RequestChange {
      const input = validate(cancelSchema, body);
      const id = input.externalServiceRequestId;
      if (input.type === "PICK")
        return picked(
          uow.run((tx) => cancelPick(deps, id, body, tx)),
          id,
        );
      return done(uow.run((tx) => cancelPut(deps, id, tx)));
    },
    modify(body: unknown): RequestChange {
      const { type } = validate(createTypeSchema, body);
      if (type === "PICK") {
        const input = validate(pickModifySchema, body);
        return picked(
          uow.run((tx) => modifyPick(deps, input, body, tx)),
          input.externalServiceRequestId,
        );
      }
      const input = validate(putModifySchema, body);
      return done(uow.run((tx) => modifyPut(deps, input, tx)));
    },
  };
}

export type RequestsService = ReturnType<typeof createRequestsService>;
