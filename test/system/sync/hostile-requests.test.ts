import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../../src/domain/json-body.js";
import type { TestAgent } from "../../support/agent.js";
import { pickBody, pickLine } from "../../support/station.js";
import { agentOn, ask, centralOn } from "../../support/sync/agent.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

/** MQTT requests are read like HTTP bodies: the same depth limit and identifier rules, the same codes. */

let t: TestAgent;
let central: Subscriber;
beforeAll(async () => {
  t = await agentOn("embedded");
  central = await centralOn(t);
});
afterAll(async () => {
  await central?.close();
  await t?.close();
});

const stored = () => t.agent.db.sqlite.prepare("SELECT count(*) AS n FROM service_requests").get();

describe("hostile MQTT requests", () => {
  it("a request nested 2,500 levels deep → error response body_too_deep, nothing stored", async () => {
    const before = stored();
    const body = JSON.stringify({
      transaction: "deep-1",
      ...pickBody("MQ-DEEP", [pickLine("L1", "SKU", 1)]),
    });
    const text = `${body.slice(0, -1)},"deep":${"[".repeat(2499)}${"]".repeat(2499)}}`;
    const r = JSON.parse(await ask(central, "create_service_request", text));
    expect(r).toMatchObject({
      status: "error",
      error: { status: 400, code: "body_too_deep", errors: [{ path: "(body)" }] },
    });
    expect(r.error.message).toContain(String(MAX_JSON_DEPTH));
    expect(stored()).toEqual(before);
  });

  it("an id with NUL → validation_failed naming the field, nothing stored", async () => {
    const before = stored();
    const body = { transaction: "nul-1", ...pickBody("MQ\u0000ID", [pickLine("L1", "SKU", 1)]) };
    const r = JSON.parse(await ask(central, "create_service_request", body));
    expect(r).toMatchObject({ status: "error", error: { code: "validation_failed" } });
    expect(r.error.errors.map((e: { path: string }) => e.path)).toContain("externalServiceRequestId");
    expect(stored()).toEqual(before);
  });
});
