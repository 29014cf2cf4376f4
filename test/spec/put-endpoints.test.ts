/**
 * Conformance: "Endpoints" → "Service requests", the put rows (Create, Cancel put, Modify put, Stage put),
 * each over HTTP and over MQTT (create_service_request, cancel_service_request, modify_service_request,
 * stage_put); "Resources" → "Put request" (the object and its attributes). Notifications are read off
 * the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE, type Json, kinds, ok, putBody, SR, seedItem } from "../support/station.js";
import { ask, PPS } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "C");
  await seedItem(c.t, "D");
  await ok(c.t.call("PUT", "/station/mode", { mode: "put" }));
  await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
});
afterAll(async () => c?.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, body);
const get = (id: string) => ok(call("GET", `${SR}/${id}?type=PUT`));
const mqtt = async (name: string, payload: Json) =>
  JSON.parse(
    await ask(c.broker, name, {
      transaction: `${name}-${payload.externalServiceRequestId ?? payload.serviceRequestId}`,
      ...payload,
    }),
  ) as Json;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function expectCreated(body: Json, id: string): void {
  expect(body).toMatchObject({
    id: expect.any(Number),
    externalServiceRequestId: id,
    type: "PUT",
    status: "CREATED",
    attributes: { tote_id: "TOTE-1" },
    actuals: { containers: [] },
  });
  // the spec's create row: "status and state CREATED"; reads and notifications use lowercase names
  expect(body.state).toBe("CREATED");
  expect(Number.isInteger(body.id)).toBe(true);
  for (const k of ["receivedOn", "createdOn", "updatedOn"]) expect(body[k]).toMatch(ISO);
  const product = body.expectations.containers[0].products[0];
  expect(product).toMatchObject({
    productQuantity: 2,
    productAttributes: { pdfa_values: { product_sku: "C" } },
  });
}

describe("put endpoint rows over HTTP and over MQTT", () => {
  it("Service requests: Create | PUT → 200 the created object with ids, status CREATED; no notification (HTTP)", async () => {
    await c.mark();
    expectCreated(await ok(call("POST", SR, putBody("E-HTTP", [["C", 2]]))), "E-HTTP");
    expect((await get("E-HTTP")).state).toBe("created");
    expect(await c.since()).toEqual([]);
  });

  it("Service requests: Create | PUT over MQTT (create_service_request) → the created object, same as HTTP", async () => {
    await c.mark();
    const res = await mqtt("create_service_request", putBody("E-MQTT", [["C", 2]]));
    expect(res.status).toBe("ok");
    expectCreated(res.data, "E-MQTT");
    expect((await get("E-MQTT")).id).toBe(res.data.id);
    expect(await c.since()).toEqual([]);
  });

  it("Service requests: Modify put → synchronous 200 {id}; the changed attributes and expectations visible on GET (HTTP and MQTT)", async () => {
    const { id } = await get("E-HTTP");
    const changed = await ok(
      call("POST", `${SR}/modify`, {
        externalServiceRequestId: "E-HTTP",
        type: "PUT",
        attributes: { tote_id: "TOTE-9" },
      }),
    );
    expect(changed).toEqual({ id, externalServiceRequestId: "E-HTTP", type: "PUT" });
    expect((await get("E-HTTP")).attributes.tote_id).toBe("TOTE-9");
    const expectations = putBody("x", [["D", 5]]).expectations;
    const res = await mqtt("modify_service_request", {
      externalServiceRequestId: "E-HTTP",
      type: "PUT",
      expectations,
    });
    expect(res).toMatchObject({
      status: "ok",
      data: { id, externalServiceRequestId: "E-HTTP", type: "PUT" },
    });
    const after = await get("E-HTTP");
    expect(after.expectations.containers[0].products[0]).toMatchObject({
      productQuantity: 5,
      productAttributes: { pdfa_values: { product_sku: "D" } },
    });
    expect([after.state, after.attributes.tote_id]).toEqual(["created", "TOTE-9"]);
  });

  it("Service requests: Stage put over MQTT (stage_put) → ok with empty data; staging success notification (state staged)", async () => {
    await c.mark();
    const res = await mqtt("stage_put", { serviceRequestId: "E-MQTT", ppsId: PPS, ppsBinId: "3" });
    expect(res).toMatchObject({ status: "ok", data: {} });
    expect(kinds(await c.sinceAtLeast(1))).toEqual([["put_information", "staged"]]);
    expect((await get("E-MQTT")).state).toBe("staged");
  });

  it("Service requests: Modify put | only in state created → 409 invalid_state over HTTP and MQTT, nothing changed", async () => {
    const body = { externalServiceRequestId: "E-MQTT", type: "PUT", attributes: { tote_id: "T-X" } };
    const res = await call("POST", `${SR}/modify`, body);
    expect([res.status, ((await res.json()) as Json).code]).toEqual([409, "invalid_state"]);
    expect(await mqtt("modify_service_request", body)).toMatchObject({
      status: "error",
      error: { code: "invalid_state" },
    });
    expect((await get("E-MQTT")).attributes.tote_id).toBe("TOTE-1");
  });

  it("Service requests: Cancel put over MQTT (cancel_service_request) → {id, externalServiceRequestId, type}; cancelled", async () => {
    const { id } = await get("E-HTTP");
    await c.mark();
    const res = await mqtt("cancel_service_request", { externalServiceRequestId: "E-HTTP", type: "PUT" });
    expect(res).toMatchObject({
      status: "ok",
      data: { id, externalServiceRequestId: "E-HTTP", type: "PUT" },
    });
    expect((await get("E-HTTP")).state).toBe("cancelled");
    expect(await c.since()).toEqual([]);
  });

  it("Service requests: Cancel put of a complete put → 409 invalid_state whose message says when a put can be cancelled", async () => {
    await ok(call("POST", "/station/racks", { msu: "M5", locations: ["S50"] }));
    await ok(
      call("POST", "/station/puts", {
        externalServiceRequestId: "E-MQTT",
        product_sku: "C",
        location: "S50",
        quantity: 2,
      }),
    );
    const res = await call("POST", `${SR}/cancel`, { externalServiceRequestId: "E-MQTT", type: "PUT" });
    const body = (await res.json()) as Json;
    expect([res.status, body.code]).toEqual([409, "invalid_state"]);
    expect(body.message).toContain("only in state created");
    expect(body.details).toEqual({ state: "complete" });
    await ok(call("POST", "/station/puts/E-MQTT/release"));
  });
});

describe("put create: bad data names the field and creates nothing", () => {
  const base = () => putBody("BAD", [["C", 1]]);
  const cases: Array<[string, (b: Json) => void, string]> = [
    [
      "externalServiceRequestId missing",
      (b) => delete b.externalServiceRequestId,
      "externalServiceRequestId",
    ],
    [
      "type not PICK or PUT",
      (b) => {
        b.type = "PUTAWAY";
      },
      "type",
    ],
    ["expectations missing", (b) => delete b.expectations, "expectations"],
    [
      "no containers",
      (b) => {
        b.expectations.containers = [];
      },
      "expectations.containers",
    ],
    [
      "no products",
      (b) => {
        b.expectations.containers[0].products = [];
      },
      "expectations.containers.0.products",
    ],
    [
      "productQuantity missing",
      (b) => delete b.expectations.containers[0].products[0].productQuantity,
      "expectations.containers.0.products.0.productQuantity",
    ],
    [
      "productQuantity 0",
      (b) => {
        b.expectations.containers[0].products[0].productQuantity = 0;
      },
      "expectations.containers.0.products.0.productQuantity",
    ],
    [
      "productQuantity not an integer",
      (b) => {
        b.expectations.containers[0].products[0].productQuantity = 1.5;
      },
      "expectations.containers.0.products.0.productQuantity",
    ],
    [
      "pdfa_values without product_sku",
      (b) => {
        b.expectations.containers[0].products[0].productAttributes.pdfa_values = { colour: "red" };
      },
      "expectations.containers.0.products.0.productAttributes.pdfa_values.product_sku",
    ],
    [
      "tote_id not a string",
      (b) => {
        b.attributes.tote_id = 7;
      },
      "attributes.tote_id",
    ],
  ];

  it.each(cases)(
    "Put request: create with %s → 400 naming the field, nothing created",
    async (_, spoil, path) => {
      const body = base();
      spoil(body);
      await c.mark();
      const res = await call("POST", SR, body);
      const answer = (await res.json()) as Json;
      expect([res.status, answer.code]).toEqual([400, "validation_failed"]);
      expect((answer.errors as Json[]).map((e) => e.path)).toContain(path);
      expect((await call("GET", `${SR}/BAD?type=PUT`)).status).toBe(404);
      expect(await c.since()).toEqual([]);
    },
  );
});

describe("Errors: any authenticated call | 401", () => {
  it("Errors: put calls (create, cancel, modify, stage, GET, station put operations) without a token → 401, nothing changed", async () => {
    const calls: Array<[string, string, Json | undefined]> = [
      ["POST", SR, putBody("NO-TOKEN", [["C", 1]])],
      ["POST", `${SR}/cancel`, { externalServiceRequestId: "E-HTTP", type: "PUT" }],
      ["POST", `${SR}/modify`, { externalServiceRequestId: "E-HTTP", type: "PUT", attributes: {} }],
      ["POST", `${CORE}/stage_put_expectation`, { serviceRequestId: "E-HTTP", ppsId: PPS, ppsBinId: "2" }],
      ["GET", `${SR}/E-HTTP?type=PUT`, undefined],
      [
        "POST",
        "/station/puts",
        { externalServiceRequestId: "E-HTTP", product_sku: "C", location: "S50", quantity: 1 },
      ],
      ["POST", "/station/puts/E-HTTP/put-back-stage", { ppsBinId: "2" }],
      ["POST", "/station/puts/E-HTTP/release", undefined],
    ];
    await c.mark();
    for (const [method, path, body] of calls) {
      const res = await c.t.request(path, {
        method,
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect([method, path, res.status]).toEqual([method, path, 401]);
    }
    expect((await call("GET", `${SR}/NO-TOKEN?type=PUT`)).status).toBe(404);
    expect((await get("E-HTTP")).state).toBe("cancelled");
    expect(await c.since()).toEqual([]);
  });
});
