/**
 * The operator screen for a person at arm's length, in the agent (in-process, a real SQLite file):
 * the version and the stale-tap rule, the alert after a refused scan and an unlit bin's button, the
 * problem action with its quantity (and its refusals), the supervisor call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock, stockOf } from "../../support/station.js";

let t: TestAgent;
const ACTIONS = "/station/seats/front/screen/actions";
const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const act = (body: Record<string, unknown>) => t.call("POST", ACTIONS, body);
const tick = () => {
  t.clock.now += 1000;
};

async function errorOf(res: Response, status: number) {
  expect(res.status).toBe(status);
  return (await res.json()) as { code: string; message: string; errors: Array<{ path: string }> };
}

beforeAll(async () => {
  t = await startTestAgent({ station: { damageBin: "DMG-1" } });
  await seedItem(t, "A");
  await seedItem(t, "B");
  await setStock(t, "M1-A1", "M1", "A", 10);
  await setStock(t, "M1-B2", "M1", "B", 10);
  await ok(act({ type: "login", user: "alice" }));
});
afterAll(async () => t.close());

describe("the version and the stale-tap rule", () => {
  it("a tap on an older screen is refused with stale_screen and changes nothing; without a version it is taken", async () => {
    const before = await screen();
    expect(before.version).toBeGreaterThan(0);
    expect(await screen()).toMatchObject({ version: before.version });
    await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-1", "A", 3)])));
    const after = await screen();
    expect(after.version).toBeGreaterThan(before.version);
    const stale = await errorOf(await act({ type: "mode", mode: "put", version: before.version }), 409);
    expect(stale).toMatchObject({
      code: "stale_screen",
      message: "the screen changed since this was tapped: look again",
    });
    expect(stale.errors[0]?.path).toBe("version");
    expect((await screen()).mode).toBe("pick");
    // the current version, or none (a scripted client), is taken
    await ok(act({ type: "language", lang: "de", version: after.version }));
    await ok(act({ type: "language", lang: null }));
  });

  it("a device of another seat does not make this seat's taps stale", async () => {
    const s = await screen();
    t.agent.services.bus.emit("station", {});
    expect((await screen()).version).toBe(s.version);
  });
});

describe("problems", () => {
  it("before a scan: the next line's slot can be reported, and the card shows it on the rack face", async () => {
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1", "M1-B2"] }));
    const s = await screen();
    expect(s.card).toMatchObject({
      phase: "take",
      slot: "M1-A1",
      // the rack's whole face: every known slot of M1 (M1-B2 has no line here)
      face: { rows: 2, cols: 2, row: 1, col: 1 },
      row: { order: "P1", sku: "A", slot: "M1-A1" },
      quantity: 3,
      line: 1,
      lines: 1,
    });
    expect(s.problems.map((p) => p.kind)).toEqual(["missing", "short", "wrong_slot"]);
  });

  it("a bad quantity is a 400 naming quantity, an unconfirmed one names confirmed; nothing changes", async () => {
    const s = await screen();
    for (const quantity of [0, 4, 1.5]) {
      const bad = await errorOf(
        await act({ type: "problem", kind: "short", quantity, confirmed: true }),
        400,
      );
      expect(bad).toMatchObject({ code: "validation_failed" });
      expect(bad.errors.map((e) => e.path)).toContain("quantity");
    }
    const unconfirmed = await errorOf(await act({ type: "problem", kind: "short", confirmed: false }), 400);
    expect(unconfirmed.errors.map((e) => e.path)).toContain("confirmed");
    const absent = await errorOf(await act({ type: "problem", kind: "short" }), 400);
    expect(absent.errors.map((e) => e.path)).toContain("confirmed");
    const none = await errorOf(await act({ type: "problem", kind: "damaged", confirmed: true }), 409);
    expect(none).toMatchObject({ code: "scan_refused" });
    tick();
    expect((await screen()).card).toMatchObject({ slot: "M1-A1", quantity: 3 });
    expect(s.card).toMatchObject({ quantity: 3 });
  });

  it("a lit pick of 3, 1 damaged: 2 picked, 1 damaged, the damaged unit goes to the damage bin", async () => {
    tick();
    await ok(act({ type: "scan", barcode: "BC-A" }));
    const lit = await screen();
    expect(lit.card).toMatchObject({
      phase: "put",
      slot: "M1-A1",
      quantity: 3,
      bin: "1",
      binColor: "green",
    });
    expect(lit.keyin).toMatchObject({ item: "A", expected: 3, max: 3 });
    const damaged = lit.problems.find((p) => p.kind === "damaged");
    expect(damaged).toMatchObject({
      max: 3,
      default: 3,
      destination: { key: "problem.to.damage_bin", params: { bin: "DMG-1" } },
    });
    const out = await ok(
      act({ type: "problem", kind: "damaged", quantity: 1, confirmed: true, version: lit.version }),
    );
    expect(out).toMatchObject({ result: "done", did: "pick_exception", calls: ["pick", "pickException"] });
    const order = await ok(t.call("GET", `${SR}/P1`));
    expect(JSON.stringify(order)).toMatch(/abandoned|CANCELLED/);
    const itemA = (await stockOf(t, "M1-A1", 1)) as { quantity: number } | undefined;
    expect(itemA?.quantity).toBe(7);
    const after = await screen();
    expect(after.bins.find((b) => b.id === "1")).toMatchObject({ state: "complete", outcome: "short" });
    expect(after.sound).toBeNull();
  });
});

describe("refusals take over the instruction area", () => {
  it("a scanned item that is not expected: the reason in words, the code, the item, what to do instead", async () => {
    tick();
    const res = await act({ type: "scan", barcode: "BC-Z-unknown" });
    expect(res.status).toBe(409);
    const s = await screen();
    expect(s.alert).toMatchObject({
      kind: "refused",
      reason: { key: "refusal.unknown_barcode" },
      code: "BC-Z-unknown",
      item: null,
      instead: { key: "instead.unknown_barcode" },
      until: t.clock.now + 1500,
    });
    expect(s.sound).toMatchObject({ kind: "error" });
    // the refusal concerns no bin and this station has no IRT bin: no light flashes, no tile shows it
    expect(s.bins.filter((b) => b.signal === "error").map((b) => b.id)).toEqual([]);
    t.clock.now += 1500;
    const over = await screen();
    expect(over.alert).toBeNull();
    expect(over.bins.every((b) => b.signal === null)).toBe(true);
  });

  it("a known item's barcode names the item", async () => {
    tick();
    await act({ type: "scan", barcode: "BC-B" });
    expect((await screen()).alert).toMatchObject({ code: "BC-B", item: "B" });
  });

  it("an unlit bin's button: refused, with the bin's error signal and the words", async () => {
    tick();
    await ok(t.call("POST", "/station/sim/press", { ppsBinId: "2" }));
    const s = await screen();
    expect(s.alert?.reason).toEqual({ key: "alert.bin_not_lit_none", params: { bin: "2" } });
    expect(s.bins.find((b) => b.id === "2")?.signal).toBe("error");
    expect(s.lastEvent).toMatchObject({ result: "refused", reason: "bin_not_lit" });
  });
});

describe("the alert's end", () => {
  it("is pushed by itself when the error signal's time has passed", async () => {
    const got: ScreenState[] = [];
    const off = t.agent.screen.publisher.subscribe("front", (json) => got.push(JSON.parse(json)));
    tick();
    await act({ type: "scan", barcode: "NOPE" });
    await new Promise((r) => setTimeout(r, 20));
    expect(got[got.length - 1]?.alert).toMatchObject({ code: "NOPE" });
    t.clock.now += 1500;
    await expect.poll(() => got[got.length - 1]?.alert, { timeout: deadline(5000) }).toBeNull();
    off();
  });
});

describe("the supervisor", () => {
  it("is called: recorded as the seat's last event", async () => {
    tick();
    const out = await ok(act({ type: "supervisor", bin: "1" }));
    expect(out).toMatchObject({ result: "done", did: "supervisor_called" });
    expect((await screen()).lastEvent).toMatchObject({ message: { key: "did.supervisor_called" } });
  });
});
