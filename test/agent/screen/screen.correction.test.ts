/**
 * A unit put wrong after a confirm, corrected at the seat by a supervisor (docs/station.md#undo): the
 * last put's units moved to the slot they are really in (the stock correction, in one transaction), a
 * pick's unit in the wrong bin (the bins to take it from and put it into; the data stays), each recorded
 * with the operator's and the supervisor's names; every refusal in words with its own code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import {
  CORE,
  ok,
  pickBody,
  pickLine,
  putBody,
  SR,
  seedItem,
  setStock,
  stockOf,
} from "../../support/station.js";

let t: TestAgent;
let keyCookie = "";
let item = 0;
const PIN = "482915";
const ACTIONS = "/station/seats/front/screen/actions";

beforeAll(async () => {
  t = await startTestAgent();
  const auth = t.agent.services.auth;
  await auth.addUser("sam", "sam-password-1234", "admin");
  await auth.setSupervisorPin("sam", PIN);
  const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
  const res = await t.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
  keyCookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  item = await seedItem(t, "CP");
  await setStock(t, "S1", "M1", "CP", 5);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

/** A tap from the station box's own display (its key session: an operator's rights). */
function tap(body: Record<string, unknown>) {
  t.clock.now += 1000;
  return t.request(ACTIONS, {
    method: "POST",
    headers: { cookie: keyCookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
const supervised = (body: Record<string, unknown>) => tap({ ...body, supervisor: { pin: PIN } });

async function refusedWith(res: Response): Promise<string> {
  expect(res.status).toBe(409);
  return ((await res.json()) as { details: { reason: string } }).details.reason;
}

type Light = { ppsBinId?: string; address: string; mode: string; color?: string; blink?: boolean };
/** What the simulated bin lights show, by bin. */
async function lights(): Promise<Record<string, string>> {
  const { lights } = (await ok(t.call("GET", "/station/sim/lights"))) as { lights: Light[] };
  return Object.fromEntries(
    lights
      .filter((l) => l.mode === "show")
      .map((l) => [l.ppsBinId ?? l.address, `${l.color}${l.blink ? " blink" : ""}`]),
  );
}

const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const authorised = () =>
  t.agent.services.securityLog.list({ limit: 1000 }).filter((e) => e.kind === "supervisor_authorised");

describe("a unit in the wrong bin after a confirmed pick", () => {
  it("offers the supervisor's tap, refuses the wrong bins in words, and records the bins with both names", async () => {
    await ok(t.call("POST", SR, pickBody("O-C1", [pickLine("O-C1-1", "CP", 1)])));
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    expect((await tap({ type: "scan", barcode: "BC-CP" })).status).toBe(200);
    expect((await tap({ type: "confirm" })).status).toBe(200);
    const s = await screen();
    expect(s.afterConfirm).toEqual({ key: "ui.after_confirm" });
    expect(s.supervised).toEqual(expect.arrayContaining(["wrong_bin", "correct_put"]));
    expect(s.correction).toMatchObject({ kind: "pick", bin: "1", order: "O-C1" });
    const others = s.correction?.kind === "pick" ? s.correction.bins : [];
    expect(others).not.toContain("1");
    expect(others.length).toBeGreaterThan(0);

    // the operator's own session may not make it: it is a supervisor's
    expect((await tap({ type: "wrong_bin", bin: "2" })).status).toBe(403);
    const bad = await supervised({ type: "wrong_bin", bin: "" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: Array<{ path: string }> }).errors[0]?.path).toBe("bin");
    expect(await refusedWith(await supervised({ type: "wrong_bin", bin: "1" }))).toBe("same_bin");
    expect(await refusedWith(await supervised({ type: "wrong_bin", bin: "no-bin" }))).toBe("bin_unknown");
    expect(await refusedWith(await supervised({ type: "correct_put", slot: "S1" }))).toBe(
      "nothing_to_correct",
    );
    // a refusal says why and what to do instead, and keeps the offer
    const refused = await screen();
    expect(refused.alert).toMatchObject({
      reason: { key: "refusal.nothing_to_correct" },
      instead: { key: "instead.nothing_to_correct" },
    });
    expect(refused.correction?.kind).toBe("pick");

    const before = await stockOf(t, "S1", item);
    const shownBefore = await lights();
    expect(shownBefore["2"]).toBeUndefined();
    const out = await ok(supervised({ type: "wrong_bin", bin: "2" }));
    expect(out).toMatchObject({ result: "done", did: "bin_corrected", params: { from: "2", to: "1" } });
    const after = await screen();
    expect(after.lastEvent?.message).toEqual({
      key: "did.bin_corrected",
      params: { from: "2", to: "1", order: "O-C1" },
    });
    expect(after.correction).toBeNull();
    // the bin to take it out of blinks red, its own bin green, until the unit is moved
    expect(await lights()).toMatchObject({ "2": "red blink", "1": "green blink" });
    // the data was right: the stock and the order stay as they were
    expect(await stockOf(t, "S1", item)).toEqual(before);
    expect(authorised()[0]).toMatchObject({
      username: "sam",
      detail: { operator: "alice", seat: "front", action: "wrong_bin", result: "done", from: "2", to: "1" },
    });
    // one correction per confirm
    expect(await refusedWith(await supervised({ type: "wrong_bin", bin: "2" }))).toBe("nothing_to_correct");
    // the button of either bin says the unit is moved: the lights show the bins as before
    const moved = await ok(t.call("POST", "/station/sim/press", { ppsBinId: "2" }));
    expect(moved.outcome).toMatchObject({ result: "done", did: "bin_move_done" });
    expect(await lights()).toEqual(shownBefore);
    expect((await screen()).lastEvent?.message).toEqual({ key: "did.bin_move_done" });
  });
});

describe("the last put into another slot than the one recorded", () => {
  it("moves the units to the slot they are in, in one stock correction, recorded with both names", async () => {
    await ok(t.call("POST", ACTIONS, { type: "empty", bin: "1" }));
    await ok(t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(t.call("POST", SR, putBody("U-C1", [["CP", 2]], "T-C1")));
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "U-C1",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    await ok(t.call("POST", "/station/racks", { msu: "M7", locations: ["S70", "S71", "S72"] }));
    await until("the tote staged", async () =>
      (await screen()).bins.some((b) => b.id === "2" && b.state === "put"),
    );
    for (const code of ["BC-CP", "BC-CP", "S70"])
      expect((await tap({ type: "scan", barcode: code })).status).toBe(200);
    expect((await tap({ type: "confirm" })).status).toBe(200);
    expect(await stockOf(t, "S70", item)).toMatchObject({ quantity: 2 });
    const s = await screen();
    expect(s.correction).toMatchObject({ kind: "put", slot: "S70", quantity: 2 });
    expect(s.correction?.kind === "put" ? s.correction.slots : []).toEqual(
      expect.arrayContaining(["S71", "S72"]),
    );

    expect((await tap({ type: "correct_put", slot: "S71" })).status).toBe(403);
    const bad = await supervised({ type: "correct_put" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: Array<{ path: string }> }).errors[0]?.path).toBe("slot");
    expect(await refusedWith(await supervised({ type: "correct_put", slot: "S70" }))).toBe("same_slot");
    expect(await refusedWith(await supervised({ type: "correct_put", slot: "S99" }))).toBe(
      "slot_not_in_rack",
    );
    expect(await refusedWith(await supervised({ type: "wrong_bin", bin: "1" }))).toBe("nothing_to_correct");
    expect(await stockOf(t, "S70", item)).toMatchObject({ quantity: 2 });

    const out = await ok(supervised({ type: "correct_put", slot: "S71" }));
    expect(out).toMatchObject({ did: "put_corrected", params: { from: "S70", to: "S71", quantity: "2" } });
    expect(await stockOf(t, "S70", item)).toMatchObject({ quantity: 0 });
    expect(await stockOf(t, "S71", item)).toMatchObject({ quantity: 2 });
    expect(authorised()[0]).toMatchObject({
      username: "sam",
      detail: { operator: "alice", action: "correct_put", result: "done", from: "S70", to: "S71" },
    });
    expect((await screen()).correction).toBeNull();
    expect(await refusedWith(await supervised({ type: "correct_put", slot: "S72" }))).toBe(
      "nothing_to_correct",
    );
  });

  it("is refused once the slot recorded no longer holds the units put", async () => {
    await ok(t.call("POST", SR, putBody("U-C2", [["CP", 1]], "T-C2")));
    await ok(
      t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "U-C2",
        ppsId: "1",
        ppsBinId: "3",
      }),
    );
    await until("the second tote staged", async () =>
      (await screen()).bins.some((b) => b.id === "3" && b.state === "put"),
    );
    for (const code of ["BC-CP", "S72"])
      expect((await tap({ type: "scan", barcode: code })).status).toBe(200);
    expect((await tap({ type: "confirm" })).status).toBe(200);
    expect((await screen()).correction).toMatchObject({ kind: "put", slot: "S72", quantity: 1 });
    await setStock(t, "S72", "M7", "CP", 0);
    expect(await refusedWith(await supervised({ type: "correct_put", slot: "S70" }))).toBe("units_gone");
    expect(await stockOf(t, "S70", item)).toMatchObject({ quantity: 0 });
  });
});
