/**
 * The station's states on the seat's screen, driven by their real causes in the agent (in-process, a real
 * SQLite file): a put staged while the station is in pick mode (its stage_failure becomes a notice), an
 * audit cancelled mid-count (the count disappears with a notice of what to do with the units), a rack of
 * three lines worked through (line 1, 2, 3 of 3 on one face size), too few asked with nothing keyed in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { createAudit } from "../../support/audits.js";
import { until } from "../../support/deadline.js";
import { CORE, ok, pickBody, pickLine, putBody, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
const ACTIONS = "/station/seats/front/screen/actions";
const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const act = (body: Record<string, unknown>) => t.call("POST", ACTIONS, body);
const tick = () => {
  t.clock.now += 1000;
};
/** The screen once `test` holds for it (the state is pushed after the change committed). */
async function screenWhen(what: string, test: (s: ScreenState) => boolean): Promise<ScreenState> {
  let last: ScreenState | undefined;
  await until(what, async () => {
    last = await screen();
    return test(last);
  });
  return last as ScreenState;
}

beforeAll(async () => {
  t = await startTestAgent();
  for (const sku of ["A", "B", "C"]) await seedItem(t, sku);
  await setStock(t, "M1-A1", "M1", "A", 10);
  await setStock(t, "M1-B3", "M1", "B", 10);
  await setStock(t, "M1-C2", "M1", "C", 10);
  // a fourth slot of the rack with no line: the face is the rack's, not the lines'
  await setStock(t, "M1-D4", "M1", "A", 10);
  await ok(act({ type: "login", user: "alice" }));
});
afterAll(async () => t.close());

describe("an audit cancelled mid-count", () => {
  it("drops the count and says to leave the units in the slot; the seat's next input clears it", async () => {
    await ok(t.call("PUT", "/station/mode", { mode: "audit" }));
    const id = await createAudit(t, { audit_param_value: { locations_list: ["M1"] } });
    await ok(t.call("POST", `/station/audits/${id}/start`));
    await ok(t.call("POST", `/station/audits/${id}/begin`, { seat: "front" }));
    const first = await screenWhen(
      "a slot to count",
      (x) => x.instruction.key === "instruction.scan_slot_to_count",
    );
    const slot = String(first.instruction.params?.slot);
    tick();
    await ok(act({ type: "scan", barcode: slot }));
    await screenWhen("counting", (x) => x.step === "audit_count");
    await ok(t.call("POST", `/station/audits/${id}/cancel`));
    const s = await screenWhen("the dropped count on the screen", (x) =>
      x.notices.some((n) => n.kind === "work_dropped"),
    );
    expect(s.step).toBe("ready");
    expect(s.notices.find((n) => n.kind === "work_dropped")?.text).toEqual({
      key: "notice.dropped_audit",
      params: { slot },
    });
    tick();
    await ok(act({ type: "mode", mode: "pick" }));
    await screenWhen(
      "the notice cleared by the next input",
      (x) => !x.notices.some((n) => n.kind === "work_dropped"),
    );
  });
});

describe("a rack of three lines, worked through", () => {
  it("line 1, 2, 3 of 3, one face size for the rack; too few opens with nothing keyed in", async () => {
    await ok(
      t.call(
        "POST",
        SR,
        pickBody("P3", [pickLine("P3-1", "A", 1), pickLine("P3-2", "B", 1), pickLine("P3-3", "C", 1)]),
      ),
    );
    await ok(
      t.call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1", "M1-B3", "M1-C2", "M1-D4"] }),
    );
    const seen: Array<[number, number, number, number]> = [];
    for (let n = 1; n <= 3; n++) {
      const s = await screenWhen(`line ${n}`, (x) => x.card?.phase === "take" && x.card.line === n);
      const c = s.card;
      if (!c?.face || !c.row) throw new Error(`line ${n} has no face or row`);
      seen.push([c.line, c.lines, c.face.rows, c.face.cols]);
      const short = s.problems.find((p) => p.kind === "short");
      expect(short).toMatchObject({ default: 0, ask: { key: "problem.ask.short" } });
      tick();
      await ok(act({ type: "scan", barcode: `BC-${c.row.sku}` }));
      const lit = await screenWhen(`line ${n} lit`, (x) => x.card?.phase === "put");
      expect(lit.card).toMatchObject({ line: n, lines: 3, face: { rows: 4, cols: 4 } });
      tick();
      await ok(act({ type: "confirm", version: lit.version }));
    }
    expect(seen).toEqual([
      [1, 3, 4, 4],
      [2, 3, 4, 4],
      [3, 3, 4, 4],
    ]);
    const done = await screenWhen("the order picked", (x) => x.card === null);
    expect(done.lastEvent?.said).toMatchObject({ key: "said.button" });
    const full = done.bins.find((b) => b.actions.includes("empty"));
    if (!full) throw new Error("no complete bin to empty");
    tick();
    await ok(act({ type: "empty", bin: full.id }));
    const emptied = await screenWhen("the bin emptied", (x) => x.lastEvent?.did === "binEmptied");
    expect(emptied.lastEvent?.said).toEqual({ key: "said.empty", params: { bin: full.id } });
  });
});

describe("a bin central freed", () => {
  it("an order waiting in its bin, cancelled over the API: the seat says the bin is free and what to do", async () => {
    await setStock(t, "M9-A1", "M9", "C", 5);
    await ok(t.call("POST", SR, pickBody("P-GONE", [pickLine("P-GONE-1", "C", 5)])));
    const waiting = await screenWhen("the order in a bin", (x) =>
      x.bins.some((b) => b.orders.some((o) => o.id === "P-GONE")),
    );
    const bin = waiting.bins.find((b) => b.orders.some((o) => o.id === "P-GONE"))?.id as string;
    await ok(t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "P-GONE", type: "PICK" }), 202);
    const s = await screenWhen("the freed bin on the screen", (x) =>
      x.notices.some((n) => n.kind === "bin_released"),
    );
    expect(s.notices.find((n) => n.kind === "bin_released")).toEqual({
      kind: "bin_released",
      text: { key: "notice.bin_released", params: { bin, orders: "P-GONE" } },
      bins: [bin],
    });
    expect(s.bins.find((b) => b.id === bin)?.orders).toEqual([]);
    tick();
    await ok(act({ type: "supervisor" }));
    await screenWhen(
      "cleared by the seat's next input",
      (x) => !x.notices.some((n) => n.kind === "bin_released"),
    );
  });
});

describe("a lit line whose order passes its deadline", () => {
  it("the lit line goes, with what to do with the units taken, and the bin it held is free", async () => {
    await setStock(t, "M1-A1", "M1", "A", 10);
    const deadline = new Date(t.clock.now + 60_000).toISOString();
    await ok(
      t.call("POST", SR, pickBody("P-LATE", [pickLine("P-LATE-1", "A", 2)], { pick_before_time: deadline })),
    );
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1"] }));
    await screenWhen("the line to take", (x) => x.card?.slot === "M1-A1" && x.card.phase === "take");
    tick();
    await ok(act({ type: "scan", barcode: "BC-A" }));
    const lit = await screenWhen("the line lit", (x) => x.step === "pick_confirm");
    const bin = lit.card?.bin as string;
    // the work scheduler's call at pick_before_time, as the agent makes it
    t.clock.now += 120_000;
    t.agent.services.operations.releaseHeldWork();
    const s = await screenWhen("the dropped line on the screen", (x) =>
      x.notices.some((n) => n.kind === "work_dropped"),
    );
    expect(s.step).toBe("ready");
    expect(s.card).toBeNull();
    expect(s.notices.find((n) => n.kind === "work_dropped")?.text).toEqual({
      key: "notice.dropped_pick_expired",
      params: { order: "P-LATE", sku: "A", slot: "M1-A1" },
    });
    expect(s.notices.find((n) => n.kind === "bin_released")?.text).toEqual({
      key: "notice.bin_released",
      params: { bin, orders: "P-LATE" },
    });
    tick();
    await ok(act({ type: "supervisor" }));
    await screenWhen("cleared by the seat's next input", (x) => x.notices.length === 0);
  });
});

describe("a put staged while the station is in pick mode", () => {
  it("answers 200, and the seat says the tote could not be staged and what to do, until the mode is Put", async () => {
    await ok(t.call("POST", SR, putBody("TOTE-7", [["A", 3]], "TOTE-7")));
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-7",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    const s = await screenWhen("the stage failure on the screen", (x) =>
      x.notices.some((n) => n.kind === "stage_failed"),
    );
    expect(s.notices.find((n) => n.kind === "stage_failed")).toEqual({
      kind: "stage_failed",
      text: { key: "notice.stage_wrong_mode_pick", params: { tote: "TOTE-7", bin: "2" } },
      bins: ["2"],
      actions: ["supervisor"],
    });
    expect(s.instruction).toEqual({ key: "instruction.no_work" });
    await ok(t.call("PUT", "/station/mode", { mode: "put" }));
    await screenWhen("the notice gone in put mode", (x) => !x.notices.some((n) => n.kind === "stage_failed"));
    // staged again in put mode: it is staged, and no notice comes back
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-7",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    await screenWhen("the tote staged", (x) => x.instruction.key === "instruction.scan_tote_or_item");
    expect((await screen()).notices).toEqual([]);
  });
});
