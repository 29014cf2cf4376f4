import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { act, createAudit } from "../../support/audits.js";
import {
  kinds,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
beforeAll(async () => {
  t = await startTestAgent();
  n = new NotificationReader(t);
  await seedItem(t, "AU");
  await setStock(t, "AU-1", "AU-M", "AU", 5);
});
afterAll(async () => t.close());

describe("a slot under audit is not allocated to picks", () => {
  it("not_fulfillable while the audit is queued; fulfillable again once it ends", async () => {
    const id = await createAudit(t, { audit_param_value: { locations_list: ["AU-1"] } });
    expect(((await (await act(t, id, "start")).json()) as { audit_status: string }).audit_status).toBe(
      "queued",
    );
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("AP1", [pickLine("AP1-1", "AU", 1)])));
    expect(kinds(await n.next())).toEqual([["order_information", "not_fulfillable"]]);
    expect((await act(t, id, "cancel")).status).toBe(200);
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("AP2", [pickLine("AP2-1", "AU", 1)])));
    expect(kinds(await n.next())).toEqual([["order_information", "fulfillable"]]);
  });
});
