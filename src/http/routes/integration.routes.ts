import type { Hono } from "hono";
import { z } from "zod";
import { rolesFor } from "../../domain/permissions.js";
import { type StagePutInput, stagePutSchema } from "../../domain/service-request.schema.js";
import { readJson } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { STAGE_PUT_EXAMPLE } from "./request-examples.js";

export const INTEGRATION_PREFIX = "/api-gateway/integration-service/wms-integration/core/api";

export interface IntegrationActions {
  stagePut(input: StagePutInput): void;
  printReady(externalServiceRequestId: string): void;
}

/** Put staging and the print-ready trigger (spec: Stage put; Process flow trigger). */
export function integrationRoutes(actions: IntegrationActions) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "post",
        path: `${INTEGRATION_PREFIX}/stage_put_expectation`,
        tag: "put staging",
        summary:
          "Stage a put request into a bin; the outcome comes as put_information (staged or stage_failure)",
        auth: true,
        roles: rolesFor("stage_put"),
        body: stagePutSchema,
        examples: { stage: STAGE_PUT_EXAMPLE },
        responses: {
          200: { description: "staging requested (empty body)" },
          400: { description: "bad data, another station's ppsId, or an unknown bin" },
          401: { description: "unauthorized" },
          404: { description: "unknown serviceRequestId" },
          409: { description: "the put request is not in state created", codes: ["invalid_state"] },
        },
      },
      async (c) => {
        actions.stagePut(await readJson(c, stagePutSchema));
        // spec: "200 with empty body"; labelled JSON, the type every endpoint answers (the server would
        // otherwise call an empty body text/plain, which a JSON client refuses)
        return c.body(null, 200, { "Content-Type": "application/json" });
      },
    );

    route(
      app,
      registry,
      {
        method: "post",
        path: `${INTEGRATION_PREFIX}/orders/print_ready/:externalServiceRequestId`,
        tag: "process flow",
        summary: "External printing of an order is done: its bin may be released",
        auth: true,
        roles: rolesFor("print_ready"),
        responses: {
          200: {
            description: "the flow resumes",
            schema: z.object({ externalServiceRequestId: z.string() }),
          },
          400: {
            description: "the order is not waiting for print (invalid order status)",
            codes: ["invalid_order_status"],
          },
          401: { description: "unauthorized" },
          404: { description: "service request id not found" },
        },
      },
      (c) => {
        const id = c.req.param("externalServiceRequestId") as string;
        actions.printReady(id);
        return c.json({ externalServiceRequestId: id });
      },
    );
  };
}
