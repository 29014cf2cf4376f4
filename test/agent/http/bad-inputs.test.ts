import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  CORE,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  putBody,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  n = new NotificationReader(t);
  await seedItem(t, "X");
  await setStock(t, "S1", "M1", "X", 5);
  await ok(t.call("POST", SR, pickBody("P", [pickLine("P-L1", "X", 2)])));
  await ok(t.call("POST", SR, putBody("U", [["X", 1]])));
  await ok(t.call("POST", "/station/seats/front/login", { user: "ann" }));
});
afterAll(async () => t.close());

const line = (over: Record<string, unknown> = {}) => ({ ...pickLine("L", "X", 1), ...over });
const withFilter = (f: string) =>
  pickBody("NEW", [pickLine("L", "X", 1)]).serviceRequests.map(() => ({
    ...pickLine("L", "X", 1),
    expectations: {
      containers: [{ products: [{ productQuantity: 1, productAttributes: { filter_parameters: [f] } }] }],
    },
  }));
const FILTER0 =
  "serviceRequests.0.expectations.containers.0.products.0.productAttributes.filter_parameters.0";

type Case = [
  name: string,
  method: string,
  path: string,
  body: unknown,
  status: number,
  code: string,
  field?: string,
];
const cases: Case[] = [
  ["create: no type", "POST", SR, { externalServiceRequestId: "NEW" }, 400, "validation_failed", "type"],
  [
    "create: unknown type",
    "POST",
    SR,
    { externalServiceRequestId: "NEW", type: "PACK" },
    400,
    "validation_failed",
    "type",
  ],
  [
    "create pick: no lines",
    "POST",
    SR,
    { externalServiceRequestId: "NEW", type: "PICK", serviceRequests: [] },
    400,
    "validation_failed",
    "serviceRequests",
  ],
  [
    "create pick: no id",
    "POST",
    SR,
    { type: "PICK", serviceRequests: [line()] },
    400,
    "validation_failed",
    "externalServiceRequestId",
  ],
  [
    "create pick: zero quantity",
    "POST",
    SR,
    pickBody("NEW", [pickLine("L", "X", 0)]),
    400,
    "validation_failed",
    "serviceRequests.0.expectations.containers.0.products.0.productQuantity",
  ],
  [
    "create pick: fractional quantity",
    "POST",
    SR,
    pickBody("NEW", [pickLine("L", "X", 1.5)]),
    400,
    "validation_failed",
    "serviceRequests.0.expectations.containers.0.products.0.productQuantity",
  ],
  [
    "create pick: line type",
    "POST",
    SR,
    pickBody("NEW", [line({ type: "PICK" })]),
    400,
    "validation_failed",
    "serviceRequests.0.type",
  ],
  [
    "create pick: repeated line id",
    "POST",
    SR,
    pickBody("NEW", [line(), line()]),
    400,
    "validation_failed",
    "serviceRequests.1.externalServiceRequestId",
  ],
  [
    "create pick: unparsable filter",
    "POST",
    SR,
    pickBody("NEW", withFilter("product_sku = X")),
    400,
    "invalid_filter",
    FILTER0,
  ],
  [
    "create pick: filter operator",
    "POST",
    SR,
    pickBody("NEW", withFilter("product_sku != 'X'")),
    400,
    "unsupported_operator",
    FILTER0,
  ],
  [
    "create pick: filter key not unique",
    "POST",
    SR,
    pickBody("NEW", withFilter("colour = 'red'")),
    400,
    "unknown_search_key",
    FILTER0,
  ],
  [
    "create pick: priority",
    "POST",
    SR,
    pickBody("NEW", [line()], { simple_priority: "urgent" }),
    400,
    "validation_failed",
    "attributes.simple_priority",
  ],
  [
    "create pick: deadline",
    "POST",
    SR,
    pickBody("NEW", [line()], { pick_before_time: "tomorrow" }),
    400,
    "validation_failed",
    "attributes.pick_before_time",
  ],
  [
    "create put: no expectations",
    "POST",
    SR,
    { externalServiceRequestId: "NEW", type: "PUT" },
    400,
    "validation_failed",
    "expectations",
  ],
  [
    "create put: unknown product",
    "POST",
    SR,
    putBody("NEW", [["NOPE", 1]]),
    400,
    "validation_failed",
    "expectations.containers.0.products.0.productAttributes.pdfa_values",
  ],
  [
    "create: same id, other body",
    "POST",
    SR,
    pickBody("P", [pickLine("P-L1", "X", 3)]),
    409,
    "duplicate_request",
    "externalServiceRequestId",
  ],
  [
    "cancel: unknown",
    "POST",
    `${SR}/cancel`,
    { externalServiceRequestId: "NOPE", type: "PICK" },
    404,
    "not_found",
    "externalServiceRequestId",
  ],
  [
    "cancel: bad type",
    "POST",
    `${SR}/cancel`,
    { externalServiceRequestId: "P", type: "PACK" },
    400,
    "validation_failed",
    "type",
  ],
  [
    "modify: unknown",
    "POST",
    `${SR}/modify`,
    { externalServiceRequestId: "NOPE", type: "PICK" },
    404,
    "not_found",
    "externalServiceRequestId",
  ],
  [
    "modify put: bad expectations",
    "POST",
    `${SR}/modify`,
    { externalServiceRequestId: "U", type: "PUT", expectations: { containers: [] } },
    400,
    "validation_failed",
    "expectations.containers",
  ],
  ["get: unknown", "GET", `${SR}/NOPE`, undefined, 404, "not_found", "externalServiceRequestId"],
  ["get: bad type", "GET", `${SR}/P?type=X`, undefined, 400, "validation_failed", "type"],
  [
    "stage: unknown request",
    "POST",
    `${CORE}/stage_put_expectation`,
    { serviceRequestId: "NOPE", ppsId: "7", ppsBinId: "1" },
    404,
    "not_found",
    "serviceRequestId",
  ],
  [
    "stage: another station",
    "POST",
    `${CORE}/stage_put_expectation`,
    { serviceRequestId: "U", ppsId: "8", ppsBinId: "1" },
    400,
    "validation_failed",
    "ppsId",
  ],
  [
    "stage: unknown bin",
    "POST",
    `${CORE}/stage_put_expectation`,
    { serviceRequestId: "U", ppsId: "7", ppsBinId: "99" },
    400,
    "validation_failed",
    "ppsBinId",
  ],
  [
    "stage: missing bin",
    "POST",
    `${CORE}/stage_put_expectation`,
    { serviceRequestId: "U", ppsId: "7" },
    400,
    "validation_failed",
    "ppsBinId",
  ],
  [
    "print ready: unknown",
    "POST",
    `${CORE}/orders/print_ready/NOPE`,
    undefined,
    404,
    "not_found",
    "externalServiceRequestId",
  ],
  [
    "print ready: not waiting",
    "POST",
    `${CORE}/orders/print_ready/P`,
    undefined,
    400,
    "invalid_order_status",
    "externalServiceRequestId",
  ],
  ["login: unknown seat", "POST", "/station/seats/middle/login", { user: "x" }, 404, "not_found", "seat"],
  ["login: no user", "POST", "/station/seats/back/login", {}, 400, "validation_failed", "user"],
  ["login: seat taken", "POST", "/station/seats/front/login", { user: "zed" }, 409, "invalid_state", "seat"],
  ["mode: unknown", "PUT", "/station/mode", { mode: "pack" }, 400, "validation_failed", "mode"],
  [
    "rack: no locations",
    "POST",
    "/station/racks",
    { msu: "M1", locations: [] },
    400,
    "validation_failed",
    "locations",
  ],
  [
    "rack: slot of another MSU",
    "POST",
    "/station/racks",
    { msu: "M2", locations: ["S1"] },
    400,
    "validation_failed",
    "locations",
  ],
  ["rack gone: not here", "DELETE", "/station/racks/M7", undefined, 404, "not_found", "msu"],
  [
    "pick: unknown request",
    "POST",
    "/station/picks",
    { externalServiceRequestId: "NOPE", line: "L", location: "S1", quantity: 1 },
    404,
    "not_found",
    "externalServiceRequestId",
  ],
  [
    "pick: unknown line",
    "POST",
    "/station/picks",
    { externalServiceRequestId: "P", line: "NOPE", location: "S1", quantity: 1 },
    404,
    "not_found",
    "line",
  ],
  [
    "pick: rack not here",
    "POST",
    "/station/picks",
    { externalServiceRequestId: "P", line: "P-L1", location: "S1", quantity: 1 },
    409,
    "invalid_state",
    "location",
  ],
  [
    "pick: negative quantity",
    "POST",
    "/station/picks",
    { externalServiceRequestId: "P", line: "P-L1", location: "S1", quantity: -1 },
    400,
    "validation_failed",
    "quantity",
  ],
  [
    "pick exception: reason",
    "POST",
    "/station/picks/exceptions",
    { externalServiceRequestId: "P", line: "P-L1", quantity: 1, reason: "lost" },
    400,
    "validation_failed",
    "reason",
  ],
  [
    "pick exception: before lock",
    "POST",
    "/station/picks/exceptions",
    { externalServiceRequestId: "P", line: "P-L1", quantity: 1, reason: "item_missing" },
    409,
    "invalid_state",
    "externalServiceRequestId",
  ],
  [
    "put: wrong mode",
    "POST",
    "/station/puts",
    { externalServiceRequestId: "U", product_sku: "X", location: "S1", quantity: 1 },
    409,
    "wrong_mode",
    "mode",
  ],
  [
    "put exception: state",
    "POST",
    "/station/puts/exceptions",
    { externalServiceRequestId: "U", product_sku: "X", quantity: 1, reason: "complete" },
    400,
    "validation_failed",
    "reason",
  ],
  [
    "release: not complete",
    "POST",
    "/station/puts/U/release",
    undefined,
    409,
    "invalid_state",
    "externalServiceRequestId",
  ],
  [
    "put back stage: unknown bin",
    "POST",
    "/station/puts/U/put-back-stage",
    { ppsBinId: "99" },
    404,
    "not_found",
    "ppsBinId",
  ],
  ["bin empty: unknown", "POST", "/station/bins/99/empty", undefined, 404, "not_found", "ppsBinId"],
  [
    "bin empty: work in progress",
    "POST",
    "/station/bins/1/empty",
    undefined,
    409,
    "invalid_state",
    "ppsBinId",
  ],
  [
    "stock: negative",
    "PUT",
    "/station/stock",
    { location: "S1", msu: "M1", product_sku: "X", quantity: -1 },
    400,
    "validation_failed",
    "quantity",
  ],
  [
    "stock: below reserved",
    "PUT",
    "/station/stock",
    { location: "S1", msu: "M1", product_sku: "X", quantity: 1 },
    409,
    "invalid_state",
    "quantity",
  ],
  [
    "stock: unknown item",
    "PUT",
    "/station/stock",
    { location: "S1", msu: "M1", product_sku: "NOPE", quantity: 1 },
    400,
    "validation_failed",
    "product_sku",
  ],
  [
    "notifications: bad after",
    "GET",
    "/station/notifications?after=-1",
    undefined,
    400,
    "validation_failed",
    "after",
  ],
];

describe("bad inputs to the service-request and station endpoints: a clear 4xx and no change", () => {
  for (const [name, method, path, body, status, code, field] of cases) {
    it(name, async () => {
      const seqBefore = await n.lastSeq();
      const stateBefore = await (await t.call("GET", "/station/state")).text();
      const requestBefore = await (await t.call("GET", `${SR}/P?type=PICK`)).text();
      const res = await t.call(method, path, body);
      const err = (await res.json()) as { status: number; code: string; errors: Array<{ path: string }> };
      expect(res.status).toBe(status);
      expect(err.status).toBe(status);
      expect(err.code).toBe(code);
      if (field) expect(err.errors.map((e) => e.path)).toContain(field);
      expect(await n.lastSeq()).toBe(seqBefore);
      expect(await (await t.call("GET", "/station/state")).text()).toBe(stateBefore);
      expect(await (await t.call("GET", `${SR}/P?type=PICK`)).text()).toBe(requestBefore);
    });
  }
});
