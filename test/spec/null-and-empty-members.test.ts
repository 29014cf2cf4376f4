/**
 * Conformance: the members of the "Service request object" typed "or null", and what an empty list
 * of them means, on create and modify over HTTP ("Endpoints" → "Service requests"). A client that
 * writes unset members as `null` (Jackson's default) or an empty list as `[]` is answered as one that
 * leaves them out (docs/decisions.md#service-requests-pick-pickpack-put).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../support/agent.js";
import { type Json, kinds, ok, pickBody, pickLine, putBody, SR } from "../support/station.js";
import { pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

let t: TestAgent;
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];

beforeAll(async () => {
  ({ t, central, c } = await pickStation(["A", "P"]));
  await c.stock("SA", "MA", "A", 20);
});
afterAll(async () => central?.close());

const quantities = (request: Json) =>
  (request.serviceRequests as Json[]).map((l) => [
    l.externalServiceRequestId,
    l.expectations.containers[0].products[0].productQuantity,
  ]);
const refused = async (res: Response) => {
  const body = (await res.json()) as Json;
  return [res.status, body.code, body.errors?.[0]?.path];
};

describe("Modify a pick | optionally `expectations`, `serviceRequests`, `attributes` | 202; 400 for bad data", () => {
  beforeAll(async () => {
    await c.create(pickBody("N1", [pickLine("N1-1", "A", 2), pickLine("N1-2", "A", 1)]));
  });

  it("`expectations` (object or null) that asks for nothing, `{containers: []}`, `{containers: null}` or `{}`, is a modify like any other: 202, success", async () => {
    for (const expectations of [{ containers: [] }, { containers: null }, {}]) {
      await central.mark();
      const res = await c.modify("N1", { expectations, attributes: { simple_priority: "high" } });
      expect([JSON.stringify(expectations), res.status]).toEqual([JSON.stringify(expectations), 202]);
      expect(kinds(await central.since())).toEqual([
        ["order_modification", "success"],
        ["order_information", "fulfillable"],
      ]);
    }
    const got = await c.get("N1");
    expect([got.attributes.simple_priority, quantities(got)]).toEqual([
      "high",
      [
        ["N1-1", 2],
        ["N1-2", 1],
      ],
    ]);
  });

  it("a root `expectations` naming a container is still refused (a pick's expectations are its lines'), nothing changed", async () => {
    await central.mark();
    const res = await c.modify("N1", {
      expectations: { containers: [{ products: [{ productQuantity: 5 }] }] },
    });
    expect(await refused(res)).toEqual([400, "validation_failed", "expectations"]);
    expect(await central.since()).toEqual([]);
  });

  it("`serviceRequests: null` and `expectations: null` (as a client writing unset members as null sends them) leave the lines as they are: an attributes-only modify", async () => {
    await central.mark();
    const res = await c.modify("N1", {
      serviceRequests: null,
      expectations: null,
      attributes: { simple_priority: "low" },
    });
    expect(res.status).toBe(202);
    expect(kinds(await central.since())).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    const got = await c.get("N1");
    expect([got.attributes.simple_priority, quantities(got)]).toEqual([
      "low",
      [
        ["N1-1", 2],
        ["N1-2", 1],
      ],
    ]);
  });

  it("a line's `expectations: null` and `serviceRequests: null` or `[]` in a modify leave its quantity and filters; `serviceRequests: []` at the root changes no line", async () => {
    const line = (id: string, more: Json) => ({
      externalServiceRequestId: id,
      type: "PICK_LINE",
      expectations: null,
      attributes: { order_number: `O-${id}` },
      ...more,
    });
    expect(
      (
        await c.modify("N1", {
          serviceRequests: [line("N1-1", { serviceRequests: null }), line("N1-2", { serviceRequests: [] })],
        })
      ).status,
    ).toBe(202);
    expect((await c.modify("N1", { serviceRequests: [] })).status).toBe(202);
    const got = await c.get("N1");
    expect(quantities(got)).toEqual([
      ["N1-1", 2],
      ["N1-2", 1],
    ]);
    expect((got.serviceRequests as Json[]).map((l) => l.attributes.order_number)).toEqual([
      "O-N1-1",
      "O-N1-2",
    ]);
    expect((await c.cancel("N1")).status).toBe(202);
  });
});

describe("Modify a put | optionally `attributes`, `expectations` | 200 with {id}", () => {
  it("`expectations: null` (object or null) leaves the expectations as they are: an attributes-only modify", async () => {
    await ok(t.call("POST", SR, putBody("NP1", [["P", 4]])));
    const res = await t.call("POST", `${SR}/modify`, {
      externalServiceRequestId: "NP1",
      type: "PUT",
      expectations: null,
      attributes: { tote_id: "TOTE-2" },
    });
    expect(res.status).toBe(200);
    const got = await ok(t.call("GET", `${SR}/NP1?type=PUT`));
    expect([got.attributes.tote_id, got.expectations.containers[0].products[0].productQuantity]).toEqual([
      "TOTE-2",
      4,
    ]);
  });
});

describe("Create | `serviceRequests`: list of service requests, or null", () => {
  it("a put with `serviceRequests: []` (it has no child requests) is created as one with null: 200 CREATED, answered `serviceRequests: null`", async () => {
    const created = await ok(t.call("POST", SR, { ...putBody("NP2", [["P", 1]]), serviceRequests: [] }));
    expect(created).toMatchObject({ status: "CREATED", serviceRequests: null });
  });

  it("a pick line with `serviceRequests: []` is created as one with null: 200 CREATED", async () => {
    const created = await c.create(pickBody("N2", [{ ...pickLine("N2-1", "A", 1), serviceRequests: [] }]));
    expect(created.serviceRequests[0]).toMatchObject({
      externalServiceRequestId: "N2-1",
      serviceRequests: null,
    });
    expect((await c.cancel("N2")).status).toBe(202);
  });

  it("a pick with `expectations: {containers: []}` (its lines hold what is asked for) is created: 200 CREATED", async () => {
    const body = { ...pickBody("N3", [pickLine("N3-1", "A", 1)]), expectations: { containers: [] } };
    expect(await c.create(body)).toMatchObject({ status: "CREATED", expectations: null });
    expect((await c.cancel("N3")).status).toBe(202);
  });

  it("a child named where a request has none is 400 naming it, nothing created", async () => {
    const put = await t.call("POST", SR, {
      ...putBody("NP3", [["P", 1]]),
      serviceRequests: [pickLine("NP3-1", "P", 1)],
    });
    expect(await refused(put)).toEqual([400, "validation_failed", "serviceRequests"]);
    const line = { ...pickLine("N4-1", "A", 1), serviceRequests: [pickLine("N4-1-1", "A", 1)] };
    const pick = await t.call("POST", SR, pickBody("N4", [line]));
    expect(await refused(pick)).toEqual([400, "validation_failed", "serviceRequests.0.serviceRequests"]);
    for (const [id, type] of [
      ["NP3", "PUT"],
      ["N4", "PICK"],
    ])
      expect((await t.call("GET", `${SR}/${id}?type=${type}`)).status).toBe(404);
  });

  it("a pick's own `serviceRequests: []` is still 400: a pick has at least one line", async () => {
    const res = await t.call("POST", SR, pickBody("N5", []));
    expect(await refused(res)).toEqual([400, "validation_failed", "serviceRequests"]);
  });
});
