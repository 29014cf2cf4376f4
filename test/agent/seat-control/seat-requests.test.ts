/**
 * What central tells a seat over MQTT (docs/mqtt.md#telling-a-seat), through the request handler the
 * sync uses, in process over a real SQLite file: pause and resume (answers, notifications, the scans
 * refused meanwhile), the station's mode, a message, signing an operator out, and every kind of bad input.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMqttRepo } from "../../../src/db/mqtt.repo.js";
import { requestOperations } from "../../../src/sync/request-operations.js";
import { createRequestHandler } from "../../../src/sync/requests.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { type Json, NotificationReader, ok } from "../../support/station.js";

let t: TestAgent;
let notes: NotificationReader;
let n = 0;

/** One request as central sends it: the answer, parsed. */
async function request(name: string, body: Json): Promise<Json> {
  const s = t.agent.services;
  const handler = createRequestHandler({
    unitOfWork: s.unitOfWork,
    mqtt: createMqttRepo(t.agent.db.sqlite),
    operations: requestOperations(s, { dataDir: t.dir, now: () => t.clock.now, status: () => ({}) as never }),
    bodyLimitBytes: 1_000_000,
    answerBytes: 256 * 1024,
    now: () => t.clock.now,
    log: pino({ level: "silent" }),
    onHandled: () => {},
  });
  n += 1;
  return JSON.parse(
    await handler.process(name, Buffer.from(JSON.stringify({ transaction: `t-${n}`, ...body }))),
  );
}

/** A scan at seat front, past the debounce window of the one before. */
const scan = (barcode: string) => {
  t.clock.now += 1000;
  return t.call("POST", "/station/scans", { seat: "front", barcode });
};

function refusedWith(answer: Json, code: string, path: string) {
  expect(answer).toMatchObject({ status: "error", data: {}, error: { code } });
  expect(answer.error.errors.map((e: { path: string }) => e.path)).toContain(path);
}

beforeAll(async () => {
  t = await startTestAgent();
  notes = new NotificationReader(t);
  await notes.catchUp();
});
afterAll(async () => t.close());

describe("pause_seat and resume_seat", () => {
  it("a pause answers the seat's pause, is a seat_paused notification, and every scan is refused with seat_paused", async () => {
    const a = await request("pause_seat", {
      seat: "front",
      reason: "Rack 4 is being restocked",
      by: "Shift lead",
    });
    expect(a).toMatchObject({
      status: "ok",
      error: null,
      data: {
        seat: "front",
        paused: true,
        sources: [{ source: "central", by: "Shift lead", reason: "Rack 4 is being restocked" }],
      },
    });
    const [paused, ...more] = await notes.next();
    expect(more).toEqual([]);
    expect(paused).toMatchObject({
      notification_type: "seat_paused",
      notification_data: {
        seat: "front",
        paused: true,
        change: { action: "pause", source: "central", by: "Shift lead" },
        sources: [{ source: "central", reason: "Rack 4 is being restocked" }],
      },
    });
    const refused = await scan("BADGE-alice");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "scan_refused", details: { reason: "seat_paused" } });
    expect(t.agent.services.scanLookup.user("front")).toBeNull();
    const state = await ok(t.call("GET", "/station/state"));
    expect(state.seats.map((x: { seat: string; paused: boolean }) => [x.seat, x.paused])).toEqual([
      ["back", false],
      ["front", true],
    ]);
    // the other seat works on
    await ok(t.call("POST", "/station/scans", { seat: "back", barcode: "BADGE-bob" }));
  });

  it("the same pause again changes nothing and sends nothing", async () => {
    const a = await request("pause_seat", {
      seat: "front",
      reason: "Rack 4 is being restocked",
      by: "Shift lead",
    });
    expect(a).toMatchObject({ status: "ok", data: { paused: true } });
    expect(await notes.next()).toEqual([]);
  });

  it("a resume answers paused false, is a seat_resumed notification, and the seat takes scans again", async () => {
    const a = await request("resume_seat", { seat: "front" });
    expect(a).toMatchObject({ status: "ok", data: { seat: "front", paused: false, sources: [] } });
    expect((await notes.next()).map((x) => [x.notification_type, x.notification_data.change])).toEqual([
      ["seat_resumed", { action: "resume", source: "central", by: "central" }],
    ]);
    await ok(scan("BADGE-alice"));
    expect(t.agent.services.scanLookup.user("front")).toBe("alice");
  });

  it("a resume of a seat that is not paused is refused (invalid_state, naming seat) and sends nothing", async () => {
    refusedWith(await request("resume_seat", { seat: "front" }), "invalid_state", "seat");
    expect(await notes.next()).toEqual([]);
  });

  it("bad input is refused naming the field, and nothing changes", async () => {
    refusedWith(await request("pause_seat", { seat: "front" }), "validation_failed", "reason");
    refusedWith(await request("pause_seat", { reason: "x" }), "validation_failed", "seat");
    refusedWith(await request("pause_seat", { seat: "front", reason: "" }), "validation_failed", "reason");
    refusedWith(
      await request("pause_seat", { seat: "front", reason: "a\u0007b" }),
      "validation_failed",
      "reason",
    );
    refusedWith(
      await request("pause_seat", { seat: "front", reason: "x".repeat(256) }),
      "validation_failed",
      "reason",
    );
    const extra = await request("pause_seat", { seat: "front", reason: "x", colour: "red" });
    refusedWith(extra, "validation_failed", "(body)");
    expect(extra.error.errors[0].message).toContain("colour");
    refusedWith(await request("pause_seat", { seat: "nowhere", reason: "x" }), "not_found", "seat");
    refusedWith(await request("resume_seat", { seat: 7 }), "validation_failed", "seat");
    expect(t.agent.services.seatControl.pausedSeats().size).toBe(0);
    expect(await notes.next()).toEqual([]);
  });
});

describe("set_mode, send_message, sign_out", () => {
  it("set_mode switches the station's mode; a mode that is none is refused naming mode", async () => {
    expect(await request("set_mode", { mode: "put" })).toMatchObject({ status: "ok", data: { mode: "put" } });
    expect(t.agent.services.scanLookup.mode()).toBe("put");
    refusedWith(await request("set_mode", { mode: "sleep" }), "validation_failed", "mode");
    refusedWith(await request("set_mode", {}), "validation_failed", "mode");
    expect(await request("set_mode", { mode: "pick" })).toMatchObject({ status: "ok" });
  });

  it("send_message keeps the message for the seat until acknowledged; bad input names the field", async () => {
    const a = await request("send_message", { seat: "front", text: "Break at 10:30" });
    expect(a).toMatchObject({ status: "ok", data: { seat: "front", id: expect.any(Number) } });
    expect(t.agent.services.seatControl.openMessages()).toMatchObject([
      { id: a.data.id, seat: "front", text: "Break at 10:30", by: "central" },
    ]);
    refusedWith(await request("send_message", { seat: "front" }), "validation_failed", "text");
    refusedWith(
      await request("send_message", { seat: "front", text: "x".repeat(501) }),
      "validation_failed",
      "text",
    );
    refusedWith(await request("send_message", { seat: "nowhere", text: "hello" }), "not_found", "seat");
    expect(t.agent.services.seatControl.openMessages()).toHaveLength(1);
  });

  it("sign_out signs the operator out and keeps the seat's work; nobody logged in is invalid_state", async () => {
    expect(await request("sign_out", { seat: "front" })).toMatchObject({
      status: "ok",
      data: { seat: "front", operator: "alice" },
    });
    expect(t.agent.services.scanLookup.user("front")).toBeNull();
    refusedWith(await request("sign_out", { seat: "front" }), "invalid_state", "seat");
    refusedWith(await request("sign_out", { seat: "nowhere" }), "not_found", "seat");
    refusedWith(await request("sign_out", {}), "validation_failed", "seat");
  });
});
