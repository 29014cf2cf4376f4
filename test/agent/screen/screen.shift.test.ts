/**
 * Undo and an audit begun at the seat, over the operator screen's actions (docs/station.md#undo,
 * docs/station.md#an-audit-begun-at-the-seat): the last scan is taken back with its light; a confirmed
 * pick is not, and the screen says what to do instead; a queued audit is begun with a tap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { createAudit, seedStock } from "../../support/audits.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
const ACTIONS = "/station/seats/front/screen/actions";

beforeAll(async () => {
  t = await startTestAgent();
  await seedItem(t, "UN");
  await setStock(t, "S1", "M1", "UN", 5);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

/** A scan at the seat's simulated scanner, past the debounce window of the one before (the clock is the test's). */
async function scan(barcode: string) {
  t.clock.now += 1000;
  return ok(t.call("POST", ACTIONS, { type: "scan", barcode }));
}

const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const lit = async () =>
  (
    (await ok(t.call("GET", "/station/sim/lights"))) as { lights: Array<{ address: string; mode: string }> }
  ).lights
    .filter((l) => l.mode !== "off")
    .map((l) => l.address);

describe("undo at the seat", () => {
  it("takes the item's scan back: the seat and its light return to the step before", async () => {
    await ok(t.call("POST", SR, pickBody("O-U1", [pickLine("O-U1-1", "UN", 1)])));
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    await scan("BC-UN");
    const before = await screen();
    expect([before.step, before.undo]).toEqual(["pick_confirm", true]);
    expect(await lit()).toEqual(["1"]);
    const out = await ok(t.call("POST", ACTIONS, { type: "undo" }));
    expect(out).toMatchObject({ result: "done", did: "undone", step: "ready" });
    const after = await screen();
    expect([after.step, after.undo, after.lastEvent?.message.key]).toEqual(["ready", false, "did.undone"]);
    expect(await lit()).toEqual([]);
    // nothing more to take back
    const again = await t.call("POST", ACTIONS, { type: "undo" });
    expect(again.status).toBe(409);
    const body = (await again.json()) as { message: string; details: { reason: string } };
    expect([body.details.reason, body.message]).toEqual(["nothing_to_undo", "there is no scan to take back"]);
  });

  it("the EXC-UNDO barcode does the same; after a confirm undo is refused and the screen says what to do", async () => {
    await scan("BC-UN");
    await scan("EXC-UNDO");
    expect((await screen()).step).toBe("ready");
    await scan("BC-UN");
    await ok(t.call("POST", ACTIONS, { type: "confirm" }));
    const confirmed = await screen();
    expect(confirmed.afterConfirm).toEqual({ key: "ui.after_confirm" });
    expect(confirmed.undo).toBe(false);
    const refused = await t.call("POST", ACTIONS, { type: "undo" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { details: { reason: string } }).details.reason).toBe(
      "undo_after_confirm",
    );
    const s = await screen();
    expect(s.alert?.instead).toEqual({ key: "instead.undo_after_confirm" });
  });
});

describe("an audit begun at the seat", () => {
  it("a queued audit is offered in audit mode and begun with a tap, instead of 'no audit'", async () => {
    await seedStock(t, "A1", "MSU-1", "UN", 2);
    await ok(t.call("POST", ACTIONS, { type: "empty", bin: "1" }));
    await ok(t.call("PUT", "/station/mode", { mode: "audit" }));
    const id = await createAudit(t);
    await ok(t.call("POST", `/station/audits/${id}/start`));
    await expect.poll(async () => (await screen()).auditQueued, { timeout: deadline(10_000) }).toBe(id);
    expect((await screen()).instruction).toEqual({ key: "instruction.begin_audit", params: { audit: id } });
    const out = await ok(t.call("POST", ACTIONS, { type: "audit_begin" }));
    expect(out).toMatchObject({ result: "done", did: "audit_begun" });
    const s = await screen();
    expect([s.auditQueued, s.instruction.key]).toEqual([null, "instruction.scan_slot_to_count"]);
    const audit = (await ok(t.call("GET", `/station/audits/${id}`))) as { audit_status: string };
    expect(audit.audit_status).toBe("started");
    // none queued now: the tap is refused for what it is
    const none = await t.call("POST", ACTIONS, { type: "audit_begin" });
    expect(none.status).toBe(409);
  });
});
