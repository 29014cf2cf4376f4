/**
 * Conformance: "Errors" (status codes by endpoint, one test per row, over HTTP; the same condition over
 * MQTT answers the same code where a request exists) and the error body, which the spec leaves not
 * shown (docs/errors.md: `{status, code, message, errors: [{path, message}], requestId}`). Each refusal
 * is checked to change nothing: the request reads back as before and no notification follows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC, passwordGrant, TOKEN_PATH } from "../support/agent.js";
import { CORE, type Json, ok, pickBody, pickLine, SR, seedItem, setStock } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { AUDIT, AUDIT_BODY, CATALOG, CATALOG_BODY } from "./support/endpoints.js";

let c: Central;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await ok(c.t.call("POST", SR, pickBody("ORDER-E", [pickLine("ORDER-E-1", "SHIRT", 1)])));
});
afterAll(async () => c?.close());

/** The error body of docs/errors.md, with the code and (when given) the field at fault. */
async function refused(res: Response | Promise<Response>, status: number, code: string, path?: string) {
  const r = await res;
  const body = (await r.json()) as Json;
  expect(body).toMatchObject({ status, code, message: expect.any(String), requestId: expect.anything() });
  expect(r.status).toBe(status);
  expect(Array.isArray(body.errors)).toBe(true);
  if (path) expect(body.errors.map((e: Json) => e.path)).toContain(path);
  return body;
}

/** The MQTT answer to `name`: an error with the same code (and field) as over HTTP, `data` `{}`. */
async function refusedOverMqtt(name: string, payload: Json, status: number, code: string, path?: string) {
  const answer = JSON.parse(await ask(c.broker, name, payload)) as Json;
  expect(answer).toMatchObject({ transaction: payload.transaction, status: "error", data: {} });
  expect(answer.error).toMatchObject({ status, code, message: expect.any(String) });
  if (path) expect(answer.error.errors.map((e: Json) => e.path)).toContain(path);
}

const order = async () => ok(c.t.call("GET", `${SR}/ORDER-E?type=PICK`));

/** Runs `refusal` and asserts that it changed nothing: the order reads the same, no notification. */
async function unchanged(refusal: () => Promise<unknown>): Promise<void> {
  const before = await order();
  await c.mark();
  await refusal();
  expect(await c.since()).toEqual([]);
  expect(await order()).toEqual(before);
}

describe("token", () => {
  it("Errors: token | 200 | success", async () => {
    const res = await fetch(`http://127.0.0.1:${c.t.agent.address?.port}${TOKEN_PATH}`, passwordGrant());
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).token_type).toBe("bearer");
  });

  it("Errors: token | 401 | not authorized", async () => {
    const body = await refused(
      c.t.request(TOKEN_PATH, passwordGrant("wrong-password-000")),
      401,
      "invalid_credentials",
    );
    expect(body).not.toHaveProperty("access_token");
  });
});

describe("any authenticated call", () => {
  it("Errors: any authenticated call | 401 | token missing, invalid or expired; fetch a new token", async () => {
    await unchanged(async () => {
      await refused(c.t.request(SR, { method: "POST", body: "{}" }), 401, "unauthorized");
      await refused(
        c.t.request(`${SR}/cancel`, { headers: { Authorization: "Bearer nope-000" }, method: "POST" }),
        401,
        "unauthorized",
      );
    });
  });

  it("Errors: catalog list | 401 | unauthorized to view", async () => {
    await refused(c.t.request(CATALOG), 401, "unauthorized");
    await refused(c.t.request(CATALOG, { headers: { Authorization: BASIC } }), 401, "unauthorized");
  });
});

describe("bad data", () => {
  it("Errors: catalog create or update | 400 | bad data (HTTP and MQTT upsert_catalog)", async () => {
    const bad = {
      ...CATALOG_BODY,
      exhaustive_pdea_list: [{ field_name: "x", field_data_type: "colour", display_data: [] }],
    };
    await refused(
      c.t.call("POST", CATALOG, bad),
      400,
      "validation_failed",
      "exhaustive_pdea_list.0.field_data_type",
    );
    await refusedOverMqtt(
      "upsert_catalog",
      { transaction: "e-cat", ...bad },
      400,
      "validation_failed",
      "exhaustive_pdea_list.0.field_data_type",
    );
    expect(await ok(c.t.call("GET", CATALOG))).toEqual([]);
  });

  it("Errors: audit create | 400 | bad data (HTTP and MQTT create_audit)", async () => {
    const bad = { ...AUDIT_BODY, audit_param_type: "shelf" };
    await unchanged(async () => {
      await refused(c.t.call("POST", AUDIT, bad), 400, "validation_failed", "audit_param_type");
      await refusedOverMqtt(
        "create_audit",
        { transaction: "e-audit", ...bad },
        400,
        "validation_failed",
        "audit_param_type",
      );
    });
  });

  it("Errors: pick create | 400 | bad data (HTTP and MQTT create_service_request)", async () => {
    const bad = pickBody("ORDER-BAD", [pickLine("ORDER-BAD-1", "SHIRT", 0)]);
    const path = "serviceRequests.0.expectations.containers.0.products.0.productQuantity";
    await unchanged(async () => {
      await refused(c.t.call("POST", SR, bad), 400, "validation_failed", path);
      await refusedOverMqtt(
        "create_service_request",
        { transaction: "e-sr", ...bad },
        400,
        "validation_failed",
        path,
      );
    });
    await refused(c.t.call("GET", `${SR}/ORDER-BAD?type=PICK`), 404, "not_found");
  });

  it("Errors: pick cancel or modify | 400 | bad data (HTTP and MQTT cancel_service_request, modify_service_request)", async () => {
    await unchanged(async () => {
      await refused(
        c.t.call("POST", `${SR}/cancel`, { type: "PICK" }),
        400,
        "validation_failed",
        "externalServiceRequestId",
      );
      await refused(
        c.t.call("POST", `${SR}/modify`, {
          externalServiceRequestId: "ORDER-E",
          type: "PICK",
          attributes: { simple_priority: "urgent" },
        }),
        400,
        "validation_failed",
        "attributes.simple_priority",
      );
      await refusedOverMqtt(
        "cancel_service_request",
        { transaction: "e-c", type: "PICK" },
        400,
        "validation_failed",
        "externalServiceRequestId",
      );
      await refusedOverMqtt(
        "modify_service_request",
        {
          transaction: "e-m",
          externalServiceRequestId: "ORDER-E",
          type: "PICK",
          attributes: { simple_priority: "urgent" },
        },
        400,
        "validation_failed",
        "attributes.simple_priority",
      );
    });
  });
});

describe("not found and order status", () => {
  it("Errors: audit delete | 404 | audit id not found (HTTP and MQTT delete_audit)", async () => {
    await unchanged(async () => {
      await refused(c.t.call("DELETE", `${AUDIT}/delete/no-such-audit`), 404, "not_found");
      await refusedOverMqtt(
        "delete_audit",
        { transaction: "e-del", audit_id: "no-such-audit" },
        404,
        "not_found",
      );
    });
  });

  it("Errors: print ready | 404 | service request id not found (HTTP and MQTT print_ready)", async () => {
    await unchanged(async () => {
      await refused(c.t.call("POST", `${CORE}/orders/print_ready/NO-SUCH-ORDER`), 404, "not_found");
      await refusedOverMqtt(
        "print_ready",
        { transaction: "e-pr", externalServiceRequestId: "NO-SUCH-ORDER" },
        404,
        "not_found",
      );
    });
  });

  it("Errors: print ready | 400 | can be due to invalid order status (HTTP and MQTT print_ready)", async () => {
    await unchanged(async () => {
      await refused(c.t.call("POST", `${CORE}/orders/print_ready/ORDER-E`), 400, "invalid_order_status");
      await refusedOverMqtt(
        "print_ready",
        { transaction: "e-pr2", externalServiceRequestId: "ORDER-E" },
        400,
        "invalid_order_status",
      );
    });
  });
});

describe("accepted", () => {
  it("Errors: pick cancel or modify | 202 | accepted for processing (HTTP and MQTT)", async () => {
    await ok(c.t.call("POST", SR, pickBody("ORDER-A", [pickLine("ORDER-A-1", "SHIRT", 1)])));
    await ok(c.t.call("POST", SR, pickBody("ORDER-B", [pickLine("ORDER-B-1", "SHIRT", 1)])));
    const modify = {
      externalServiceRequestId: "ORDER-A",
      type: "PICK",
      attributes: { simple_priority: "high" },
    };
    expect(await ok(c.t.call("POST", `${SR}/modify`, modify), 202)).toEqual({
      id: expect.anything(),
      externalServiceRequestId: "ORDER-A",
      type: "PICK",
    });
    expect(
      await ok(c.t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "ORDER-A", type: "PICK" }), 202),
    ).toMatchObject({ externalServiceRequestId: "ORDER-A" });
    const overMqtt = JSON.parse(
      await ask(c.broker, "cancel_service_request", {
        transaction: "e-ok",
        externalServiceRequestId: "ORDER-B",
        type: "PICK",
      }),
    ) as Json;
    expect(overMqtt).toMatchObject({
      status: "ok",
      error: null,
      data: { externalServiceRequestId: "ORDER-B", type: "PICK" },
    });
    expect((await ok(c.t.call("GET", `${SR}/ORDER-B?type=PICK`))).state).toBe("cancelled");
  });
});

describe("error body (not shown: docs/errors.md)", () => {
  it("Errors: Error response body format (decision: {status, code, message, errors[{path, message}], requestId}) on a sample of each kind", async () => {
    const samples: Array<[Promise<Response>, number, string]> = [
      [c.t.request(CATALOG), 401, "unauthorized"],
      [c.t.call("POST", CATALOG, { clientCatalogId: 5 }), 400, "validation_failed"],
      [
        c.t.request(CATALOG, {
          method: "POST",
          headers: { Authorization: `Bearer ${await c.t.token()}`, "Content-Type": "application/json" },
          body: "{",
        }),
        400,
        "malformed_json",
      ],
      [c.t.call("DELETE", `${AUDIT}/delete/none`), 404, "not_found"],
      [c.t.call("GET", "/api-gateway/nowhere"), 404, "route_not_found"],
      [
        c.t.request(CATALOG, {
          headers: { Authorization: `Bearer ${await c.t.token()}`, Accept: "text/csv" },
        }),
        406,
        "not_acceptable",
      ],
      [
        c.t.request(CATALOG, {
          method: "POST",
          headers: { Authorization: `Bearer ${await c.t.token()}`, "Content-Type": "text/plain" },
          body: "{}",
        }),
        415,
        "unsupported_media_type",
      ],
    ];
    for (const [res, status, code] of samples) {
      const body = await refused(res, status, code);
      expect(Object.keys(body).sort()).toEqual(
        expect.arrayContaining(["code", "errors", "message", "requestId", "status"]),
      );
      for (const e of body.errors)
        expect(e).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  });
});
