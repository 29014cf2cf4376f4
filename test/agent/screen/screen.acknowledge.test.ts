/**
 * Acknowledging what a restart did to a seat's lit work (docs/station.md#after-a-restart): refused with
 * why when there is nothing to acknowledge, a malformed body refused naming the field; neither changes
 * anything. The notice itself, after a real restart: test/system/screen/restart-lit.browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok } from "../../support/station.js";

let t: TestAgent;
const act = (body: unknown) => t.call("POST", "/station/seats/front/screen/actions", body);

beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

describe("acknowledge", () => {
  it("with nothing to acknowledge: 409, invalid_state, the screen as it was", async () => {
    const before = await ok(t.call("GET", "/station/seats/front/screen"));
    const res = await act({ type: "acknowledge_restart" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: { reason: string } }).details.reason).toBe("invalid_state");
    const after = await ok(t.call("GET", "/station/seats/front/screen"));
    expect(after.restart).toBeNull();
    expect(after.step).toBe(before.step);
  });

  it("with a member it does not take: 400 naming it", async () => {
    const res = await act({ type: "acknowledge_restart", seat: "back" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/seat|unrecognized/i);
  });

  it("at a seat that does not exist: 404", async () => {
    const res = await t.call("POST", "/station/seats/nope/screen/actions", { type: "acknowledge_restart" });
    expect(res.status).toBe(404);
  });
});
