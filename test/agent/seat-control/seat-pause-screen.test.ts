/**
 * A paused seat on its screen and at its taps, in process over a real SQLite file
 * (docs/station.md#pausing-a-seat): the state says who paused it and why and offers nothing; every tap
 * but resume and acknowledge is refused with seat_paused; the lit bin shows the pause on the screen as
 * on its light; a supervisor's pause and resume are an admin's taps; a message waits until acknowledged;
 * and a pause survives a restart of the agent on the same data folder.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, testConfig } from "../../support/agent.js";
import { NotificationReader, ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
const ACTIONS = "/station/seats/front/screen/actions";
const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const act = (body: Record<string, unknown>) => t.call("POST", ACTIONS, body);
const reasonOf = async (res: Response) => {
  expect(res.status).toBe(409);
  return ((await res.json()) as { details: { reason: string } }).details.reason;
};

beforeAll(async () => {
  t = await startTestAgent();
  await seedItem(t, "A");
  await setStock(t, "S1", "M1", "A", 10);
  await ok(act({ type: "login", user: "alice" }));
  await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-1", "A", 3)])));
  await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
  t.clock.now += 1000;
  await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BC-A" }));
});
afterAll(async () => t.close());

describe("a paused seat's screen", () => {
  it("a supervisor (admin) pauses it with a reason: who and why, nothing offered, the lit bin paused", async () => {
    const lit = (await screen()).bins.find((b) => b.mine);
    expect(lit?.light).toMatchObject({ mode: "show", color: "green", quantity: 3 });
    await ok(act({ type: "pause", reason: "Training break" }));
    const s = await screen();
    expect(s.pause).toMatchObject({
      sources: [{ kind: "supervisor", by: "admin", reason: "Training break" }],
      resumable: true,
    });
    expect(s.instruction).toEqual({ key: "instruction.seat_paused" });
    expect(s.allowed).toMatchObject({
      logout: false,
      confirm: false,
      keyin: false,
      cancel: false,
      modes: [],
    });
    expect(s.problems).toEqual([]);
    expect(s.bins.find((b) => b.id === lit?.id)?.light).toEqual({ mode: "show", color: "yellow" });
  });

  it("every tap but resume and acknowledge is refused with seat_paused and changes nothing", async () => {
    for (const tap of [
      { type: "confirm" },
      { type: "cancel" },
      { type: "logout" },
      { type: "language", lang: "de" },
    ])
      expect(await reasonOf(await act(tap))).toBe("seat_paused");
    expect((await screen()).operator).toBe("alice");
    expect((await screen()).lastEvent).toMatchObject({ result: "refused", reason: "seat_paused" });
  });

  it("a message waits on the paused screen and is acknowledged; central is told", async () => {
    const notes = new NotificationReader(t);
    await notes.catchUp();
    const { id } = await ok(t.call("POST", "/station/seats/front/messages", { text: "Call the office" }));
    expect((await screen()).message).toMatchObject({ id, text: "Call the office", by: "admin" });
    expect(await reasonOf(await act({ type: "acknowledge", id: id + 1 }))).toBe("not_found");
    await ok(act({ type: "acknowledge", id }));
    expect((await screen()).message).toBeNull();
    expect(
      (await notes.next()).map((n) => [n.notification_type, n.notification_data.acknowledgedBy]),
    ).toEqual([["message_acknowledged", "alice"]]);
  });

  it("the resume tap brings the lit bin back with its quantity", async () => {
    await ok(act({ type: "resume" }));
    const s = await screen();
    expect(s.pause).toBeNull();
    expect(s.bins.find((b) => b.mine)?.light).toMatchObject({ color: "green", quantity: 3 });
    expect(await reasonOf(await act({ type: "resume" }))).toBe("invalid_state");
  });

  it("a pause and a message outlive a restart on the same data folder", async () => {
    await ok(t.call("POST", "/station/seats/back/pause", { reason: "Broken scanner", by: "WMS" }));
    await ok(t.call("POST", "/station/seats/back/messages", { text: "Use seat front" }));
    await t.agent.stop();
    const again = createAgent(testConfig(t.dir), { log: pino({ level: "silent" }) });
    await again.start(false);
    try {
      expect([...again.services.seatControl.pausedSeats()]).toEqual(["back"]);
      expect(again.services.seatControl.pauses("back")).toMatchObject([
        { kind: "central", by: "WMS", reason: "Broken scanner" },
      ]);
      expect(again.services.seatControl.openMessages()).toMatchObject([
        { seat: "back", text: "Use seat front" },
      ]);
      expect(again.screen.publisher.state("back").pause).toMatchObject({ sources: [{ kind: "central" }] });
    } finally {
      await again.stop();
      await t.agent.start(false);
    }
  });
});
