/**
 * The config file's endpoints, written at every start (services/webhooks/config-endpoints.ts): new ones
 * start at the end of the outbox, known ones keep their cursor, ones taken out are removed, a refused URL
 * names its endpoint and changes nothing, and `enabled: true` does not undo a disable by the delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../../src/domain/errors.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const S1 = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
const S2 = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
let t: TestAgent;
const hook = (id: string, url = `https://${id}.example.com/h`, secret = S1, enabled = true) => ({
  id,
  url,
  secret,
  enabled,
});

beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

describe("webhook endpoints of the config file", () => {
  it("starts new ones at the end of the outbox, keeps a known one's cursor through a change, removes one taken out", () => {
    const svc = t.agent.services;
    for (let i = 0; i < 3; i++) svc.unitOfWork.run((tx) => tx.notify("bin_complete", { i }));
    svc.webhooks.applyConfig([hook("a"), hook("b")]);
    expect(svc.webhooks.get("a")).toMatchObject({ deliveredSeq: 3, source: "config", enabled: true });
    svc.repos.webhooks.advance("a", { seq: 3, at: 0, status: 204, failing: false });
    svc.unitOfWork.run((tx) => tx.notify("bin_complete", { i: 4 }));
    expect(svc.webhooks.applyConfig([hook("a", "https://new.example.com/h", S2)])).toEqual(["b"]);
    expect(svc.webhooks.get("a")).toMatchObject({ url: "https://new.example.com/h", deliveredSeq: 3 });
    expect(svc.repos.webhooks.get("a")?.secret).toBe(S2);
    expect(svc.webhooks.list().map((w) => w.id)).toEqual(["a"]);
  });

  it("does not undo a disable by the delivery; `enabled: false` disables", () => {
    const svc = t.agent.services;
    svc.repos.webhooks.disable("a", "gone", 0);
    svc.webhooks.applyConfig([hook("a", "https://new.example.com/h", S2, true)]);
    expect(svc.webhooks.get("a")).toMatchObject({ enabled: false, disabledReason: "gone" });
    svc.webhooks.enable("a");
    svc.webhooks.applyConfig([hook("a", "https://new.example.com/h", S2, false)]);
    expect(svc.webhooks.get("a")).toMatchObject({ enabled: false, disabledReason: "config" });
    svc.webhooks.applyConfig([hook("a", "https://new.example.com/h", S2, true)]);
    expect(svc.webhooks.get("a")).toMatchObject({ enabled: true });
  });

  it("refuses a metadata URL naming the endpoint's key, and changes nothing", () => {
    const svc = t.agent.services;
    const before = svc.webhooks.list();
    let err: unknown;
    try {
      svc.webhooks.applyConfig([hook("m", "https://169.254.169.254/")]);
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && [err.code, err.errors[0]?.path]).toEqual([
      "webhook_url_refused",
      "webhooks.endpoints.m.url",
    ]);
    expect(svc.webhooks.list()).toEqual(before);
  });
});
