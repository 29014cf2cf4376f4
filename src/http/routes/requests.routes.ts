import type { Hono } from "hono";
import { z } from "zod";
import type { ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import {
  cancelSchema,
  pickCreateSchema,
  pickModifySchema,
  putCreateSchema,
  putModifySchema,
} from "../../domain/service-request.schema.js";
import type { RequestChange, RequestsService } from "../../services/requests/requests.service.js";
import { readJson, validate } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { CANCEL_EXAMPLE, MODIFY_EXAMPLES, SERVICE_REQUEST_EXAMPLES } from "./request-examples.js";

export const SR_PREFIX = "/api-gateway/sr-service/platform-srms";

/** A service request as the spec's Service Request object (its main members; others follow). */
export const srView = z.looseObject({
  id: z.number().int(),
  externalServiceRequestId: z.string(),
  type: z.string(),
  status: z.string(),
  state: z.string(),
});
const txAnswer = z.object({ id: z.number().int(), externalServiceRequestId: z.string(), type: z.string() });
const getQuery = z.object({ type: z.enum(["PICK", "PUT"]).optional() });
/** A pick line's filters are parsed after the schema passed (docs/interface.md "Filter strings"). */
const FILTER_CODES: ErrorCode[] = [
  "validation_failed",
  "invalid_filter",
  "unknown_search_key",
  "unsupported_operator",
];
/** A pick over a work limit (docs/decisions.md "Work limits"), or a body over the body limit. */
const LIMIT_ANSWER = {
  description: "the body is over the body limit, or a pick asks for more work than a configured limit allows",
  codes: ["payload_too_large", "limit_exceeded"] satisfies ErrorCode[],
};
/** Bodies the service validates itself (a create by the schema its type names). */
const anyBody = z.unknown();

/** A PICK change is answered later by order_modification (spec: 202 + transaction id); a PUT one is done. */
const statusOf = (r: RequestChange) => (r.outcome === "accepted" ? 202 : 200);

/** Service requests (spec: Endpoints → Service requests). */
export function requestsRoutes(requests: RequestsService) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    createRoute(app, registry, requests);
    changeRoutes(app, registry, requests);
    getRoute(app, registry, requests);
  };
}

function createRoute(app: Hono<AppEnv>, registry: RouteRegistry, requests: RequestsService): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: `${SR_PREFIX}/service-request`,
      tag: "service requests",
      summary:
        "Create a PICK (also pick+pack) or PUT request; the same body again returns the stored request",
      auth: true,
      roles: rolesFor("create_service_request"),
      body: z.union([pickCreateSchema, putCreateSchema]),
      examples: SERVICE_REQUEST_EXAMPLES,
      responses: {
        200: {
          description: "the created (or stored) request, status and state CREATED on creation",
          schema: srView,
        },
        400: {
          description: "bad data; `errors` names the field (filters name the line and the string)",
          codes: FILTER_CODES,
        },
        409: {
          description: "the externalServiceRequestId is used by another request of this type",
          codes: ["duplicate_request"],
        },
        413: LIMIT_ANSWER,
      },
    },
    async (c) => {
      const result = await requests.createAsync(await readJson(c, anyBody));
      return c.json(result.view, 200);
    },
  );
}

/** Cancel and modify: a PICK change is answered later, a PUT change at once. */
function changeRoutes(app: Hono<AppEnv>, registry: RouteRegistry, requests: RequestsService): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: `${SR_PREFIX}/service-request/cancel`,
      tag: "service requests",
      summary:
        "Cancel: PICK asynchronously (202 + transaction id, order_modification follows), PUT synchronously",
      auth: true,
      roles: rolesFor("cancel_service_request"),
      body: cancelSchema,
      examples: { cancel: CANCEL_EXAMPLE },
      responses: {
        200: { description: "PUT cancelled", schema: txAnswer },
        202: {
          description: "PICK cancel accepted; the outcome comes as order_modification",
          schema: txAnswer,
        },
        400: { description: "bad data" },
        404: { description: "unknown externalServiceRequestId" },
        409: {
          description:
            "PUT not in created (details.state names its state); a staged put's tote is in its bin: empty the bin or release the tote first",
          codes: ["invalid_state"],
        },
      },
    },
    async (c) => {
      const r = requests.cancel(await readJson(c, anyBody));
      return c.json(r.body, statusOf(r));
    },
  );

  route(
    app,
    registry,
    {
      method: "post",
      path: `${SR_PREFIX}/service-request/modify`,
      tag: "service requests",
      summary: "Modify: PICK asynchronously (202 + transaction id), PUT synchronously (only in created)",
      auth: true,
      roles: rolesFor("modify_service_request"),
      body: z.union([pickModifySchema, putModifySchema]),
      examples: MODIFY_EXAMPLES,
      responses: {
        200: { description: "PUT modified", schema: txAnswer },
        202: {
          description: "PICK modify accepted; the outcome comes as order_modification",
          schema: txAnswer,
        },
        400: { description: "bad data", codes: FILTER_CODES },
        404: { description: "unknown externalServiceRequestId" },
        409: { description: "PUT not in state created", codes: ["invalid_state"] },
        413: LIMIT_ANSWER,
      },
    },
    async (c) => {
      const r = requests.modify(await readJson(c, anyBody));
      return c.json(r.body, statusOf(r));
    },
  );
}

function getRoute(app: Hono<AppEnv>, registry: RouteRegistry, requests: RequestsService): void {
  route(
    app,
    registry,
    {
      method: "get",
      path: `${SR_PREFIX}/service-request/:externalServiceRequestId`,
      tag: "service requests",
      summary: "The current state of a request (not in the spec; docs/decisions.md)",
      auth: true,
      roles: rolesFor("read_service_request"),
      query: getQuery,
      responses: {
        200: { description: "the request", schema: srView },
        400: { description: "the id names both a PICK and a PUT: give `type`" },
        404: { description: "unknown" },
      },
    },
    (c) => {
      const { type } = validate(getQuery, c.req.query(), "query");
      return c.json(requests.get(c.req.param("externalServiceRequestId") as string, type));
    },
  );
}
