import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordGrant, TOKEN_PATH } from "../support/agent.js";
import { CORE, type Json, ok, pickBody, pickLine, SR } from "../support/station.js";
import { pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: "Errors" rows "pick create | 400 | bad data" and "any authenticated call | 401 | token
 * missing, invalid or expired", with the pick request's required members (Service Request object, Pick
 * request: "at least one required", `PICK_LINE`, productQuantity integer, filter grammar, root
 * attributes) and docs/errors.md: each refusal names its code and the field, and changes nothing.
 */
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];

beforeAll(async () => {
  ({ central, c } = await pickStation(["A"]));
  await c.stock("SA", "MA", "A", 10);
  await c.create(pickBody("KEEP", [pickLine("KEEP-1", "A", 2)], { simple_priority: "low" }));
});
afterAll(async () => central?.close());

const PRODUCT = "serviceRequests.0.expectations.containers.0.products.0";
/** A pick line whose one product is `product`, as sent. */
const lineWith = (product: Json): Json => ({
  externalServiceRequestId: "BAD-1",
  type: "PICK_LINE",
  expectations: { containers: [{ products: [product] }] },
});
const filtered = (filters: string[]): Json =>
  lineWith({ productQuantity: 1, productAttributes: { filter_parameters: filters } });

/** The request KEEP and the notifications: what a refused call must leave as they were. */
async function untouched(before: Json): Promise<void> {
  expect(await c.get("KEEP")).toEqual(before);
  expect(await central.since()).toEqual([]);
}

const BAD_CREATES: Array<[string, Json, string, string]> = [
  [
    "serviceRequests missing: at least one required",
    { externalServiceRequestId: "BAD", type: "PICK" },
    "serviceRequests",
    "validation_failed",
  ],
  [
    "serviceRequests empty: at least one required",
    pickBody("BAD", []),
    "serviceRequests",
    "validation_failed",
  ],
  [
    "line type not PICK_LINE",
    pickBody("BAD", [{ ...pickLine("BAD-1", "A", 1), type: "PUT_LINE" }]),
    "serviceRequests.0.type",
    "validation_failed",
  ],
  [
    "productQuantity missing",
    pickBody("BAD", [lineWith({ productAttributes: { filter_parameters: ["product_sku = 'A'"] } })]),
    `${PRODUCT}.productQuantity`,
    "validation_failed",
  ],
  [
    "productQuantity 0",
    pickBody("BAD", [pickLine("BAD-1", "A", 0)]),
    `${PRODUCT}.productQuantity`,
    "validation_failed",
  ],
  [
    "productQuantity not an integer",
    pickBody("BAD", [pickLine("BAD-1", "A", 1.5)]),
    `${PRODUCT}.productQuantity`,
    "validation_failed",
  ],
  [
    "no filter (empty filter_parameters)",
    pickBody("BAD", [filtered([])]),
    `${PRODUCT}.productAttributes.filter_parameters`,
    "validation_failed",
  ],
  [
    "no filter (no productAttributes)",
    pickBody("BAD", [lineWith({ productQuantity: 1 })]),
    `${PRODUCT}.productAttributes`,
    "validation_failed",
  ],
  [
    "filter that does not parse",
    pickBody("BAD", [filtered(["product_sku 'A'"])]),
    `${PRODUCT}.productAttributes.filter_parameters.0`,
    "invalid_filter",
  ],
  [
    "value not single-quoted",
    pickBody("BAD", [filtered(["product_sku = A"])]),
    `${PRODUCT}.productAttributes.filter_parameters.0`,
    "invalid_filter",
  ],
  [
    "`in` with a value that is not a list",
    pickBody("BAD", [filtered(["product_sku in 'A'"])]),
    `${PRODUCT}.productAttributes.filter_parameters.0`,
    "invalid_filter",
  ],
  [
    "operator not = or in",
    pickBody("BAD", [filtered(["product_sku != 'A'"])]),
    `${PRODUCT}.productAttributes.filter_parameters.0`,
    "unsupported_operator",
  ],
  [
    "unique_key not a unique attribute",
    pickBody("BAD", [filtered(["colour = 'red'"])]),
    `${PRODUCT}.productAttributes.filter_parameters.0`,
    "unknown_search_key",
  ],
  [
    "simple_priority not normal, high, low or critical",
    pickBody("BAD", [pickLine("BAD-1", "A", 1)], { simple_priority: "urgent" }),
    "attributes.simple_priority",
    "validation_failed",
  ],
  [
    "pick_before_time not ISO 8601",
    pickBody("BAD", [pickLine("BAD-1", "A", 1)], { pick_before_time: "tomorrow" }),
    "attributes.pick_before_time",
    "validation_failed",
  ],
  [
    "pick_after_time not ISO 8601",
    pickBody("BAD", [pickLine("BAD-1", "A", 1)], { pick_after_time: "2026-13-01T10:00:00Z" }),
    "attributes.pick_after_time",
    "validation_failed",
  ],
  [
    "order_options not an object (a string)",
    pickBody("BAD", [pickLine("BAD-1", "A", 1)], { order_options: "fast" }),
    "attributes.order_options",
    "validation_failed",
  ],
  [
    "order_options not an object (a list)",
    pickBody("BAD", [pickLine("BAD-1", "A", 1)], { order_options: [1] }),
    "attributes.order_options",
    "validation_failed",
  ],
];

describe("Errors: pick create | 400 | bad data", () => {
  it.each(BAD_CREATES)(
    "Errors: pick create | 400 | bad data: %s → names the field, creates nothing",
    async (_what, body, field, code) => {
      const before = await c.get("KEEP");
      await central.mark();
      const res = await central.call("POST", SR, body);
      const answer = (await res.json()) as Json;
      expect([res.status, answer.code]).toEqual([400, code]);
      expect(answer.errors.map((e: Json) => e.path)).toContain(field);
      expect((await central.call("GET", `${SR}/BAD?type=PICK`)).status).toBe(404);
      await untouched(before);
    },
  );
});

/** The pick endpoints, each as a call that would change or read KEEP (or create NEW) with a valid token. */
const PICK_ENDPOINTS: Array<[string, string, string, Json | undefined]> = [
  ["create", "POST", SR, pickBody("NEW", [pickLine("NEW-1", "A", 1)])],
  ["cancel", "POST", `${SR}/cancel`, { externalServiceRequestId: "KEEP", type: "PICK" }],
  [
    "modify",
    "POST",
    `${SR}/modify`,
    { externalServiceRequestId: "KEEP", type: "PICK", attributes: { simple_priority: "high" } },
  ],
  ["print_ready", "POST", `${CORE}/orders/print_ready/KEEP`, undefined],
  ["GET", "GET", `${SR}/KEEP?type=PICK`, undefined],
];

/** A token of its own, so that expiring it leaves the central's token alone. */
async function freshToken(): Promise<{ token: string; ttl: number }> {
  const got = await ok(central.t.request(TOKEN_PATH, passwordGrant()));
  return { token: got.access_token as string, ttl: got.expires_in as number };
}

describe("Errors: any authenticated call | 401 | token missing, invalid or expired; fetch a new token", () => {
  it.each(PICK_ENDPOINTS)(
    "Errors: any authenticated call | 401: pick %s without a token, with a bad one and with an expired one → 401, nothing changed",
    async (_name, method, path, body) => {
      const before = await c.get("KEEP");
      await central.mark();
      const { token, ttl } = await freshToken();
      const send = (auth: Record<string, string>) =>
        central.t.request(path, {
          method,
          headers: { ...auth, ...(body ? { "Content-Type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const statuses = [
        (await send({})).status,
        (await send({ Authorization: "Bearer not-a-token" })).status,
      ];
      const valid = await central.t.request(`${SR}/KEEP?type=PICK`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(valid.status).toBe(200);
      const now = central.t.clock.now;
      central.t.clock.now = now + (ttl + 1) * 1000;
      try {
        statuses.push((await send({ Authorization: `Bearer ${token}` })).status);
      } finally {
        central.t.clock.now = now;
      }
      expect(statuses).toEqual([401, 401, 401]);
      expect((await central.call("GET", `${SR}/NEW?type=PICK`)).status).toBe(404);
      await untouched(before);
    },
  );
});
