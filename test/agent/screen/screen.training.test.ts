/**
 * Training (docs/station.md#training): a seat in training works against the training station, its own
 * database under `<dataDir>/training/` seeded with the training scenario. A pick and a put there, by the
 * screen's taps and by the seat's own scanner, leave the station's database as it was, row for row; the
 * training station's database has them. Every screen state of a training seat says `training`. Bad
 * input: an unknown seat, a seat with an operator logged in, an operator's token, a bad body.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import type { Sqlite } from "../../../src/db/open.js";
import {
  BASIC,
  startTestAgent,
  type TestAgent,
  TOKEN_PATH,
  tempDir,
  testConfig,
} from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok } from "../../support/station.js";

/** Every table of the station's work and what central hears of it, as rows. */
const TABLES = [
  "station_state",
  "seats",
  "bins",
  "racks",
  "locations",
  "stock",
  "items",
  "barcodes",
  "service_requests",
  "pick_lines",
  "reservations",
  "actuals",
  "audits",
  "audit_lines",
  "outbox",
  "screen_operators",
];
const rows = (db: Sqlite) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all()]));

type State = { training: boolean; operator: string | null; step: string; mode: string; version: number };

let t: TestAgent;
const screen = async (seat: string) => (await ok(t.call("GET", `/station/seats/${seat}/screen`))) as State;
const tap = (seat: string, action: Record<string, unknown>) =>
  t.call("POST", `/station/seats/${seat}/screen/actions`, action);
const later = () => {
  t.clock.now += 1000; // past the scan debounce window, as between two scans a person makes
};
/** The units in a slot of the training station. */
const slot = (location: string) =>
  (
    t.agent.training
      .database()
      ?.prepare("SELECT sum(quantity) AS n FROM stock WHERE location = ?")
      .get(location) as { n: number } | undefined
  )?.n;

beforeAll(async () => {
  t = await startTestAgent({ station: { trainingSeats: ["front"] } });
}, deadline(30_000));
afterAll(async () => t?.close());

describe("training", { timeout: deadline(30_000) }, () => {
  it("a training seat's every state says training; the other seat's does not", async () => {
    expect(existsSync(join(t.dir, "training", "pps-edge.db"))).toBe(true);
    expect(await ok(t.call("GET", "/station/training"))).toEqual({ seats: ["front"] });
    // a configured seat is the configuration's: it is not kept as put in training at runtime
    expect(t.agent.services.repos.training.seats()).toEqual([]);
    const front = await screen("front");
    expect(front).toMatchObject({ training: true, operator: null, mode: "pick" });
    expect((await screen("back")).training).toBe(false);
  });

  it("a pick and a put at the training seat change nothing at the station", async () => {
    const before = rows(t.agent.db.sqlite);
    // the pick: log in, scan the item the screen asks for, confirm
    await ok(tap("front", { type: "login", user: "trainee" }));
    const logged = await screen("front");
    expect(logged).toMatchObject({ training: true, operator: "trainee", mode: "pick" });
    later();
    await ok(tap("front", { type: "scan", barcode: "TRAIN-100" }));
    expect((await screen("front")).step).toBe("pick_confirm");
    await ok(tap("front", { type: "confirm" }));
    expect(await screen("front")).toMatchObject({ training: true, step: "ready" });

    // start over in put mode; the seat stays in training
    expect(await ok(t.call("POST", "/station/training/reset", { mode: "put" }))).toEqual({
      seats: ["front"],
    });
    expect(await screen("front")).toMatchObject({ training: true, operator: null, mode: "put" });
    // the put, on the seat's own scanner (simulated here): it reaches the training station, not the station's
    later();
    const sim = await ok(t.call("POST", "/station/sim/scan", { seat: "front", barcode: "BADGE-trainee" }));
    // the station's engine never saw it: no outcome of its own to answer with
    expect(sim.outcome).toBeNull();
    await until(
      "the trainee logged in at the training seat",
      async () => (await screen("front")).operator === "trainee",
    );
    for (const code of ["TRAIN-TOTE-1", "TRAIN-100", "TRAIN-S1"]) {
      later();
      await ok(tap("front", { type: "scan", barcode: code }));
    }
    expect((await screen("front")).step).toBe("put_confirm");
    await ok(tap("front", { type: "confirm" }));
    expect(await screen("front")).toMatchObject({ training: true, step: "ready" });

    expect(rows(t.agent.db.sqlite)).toEqual(before);
    // the training station has the put: 20 shirts in slot TRAIN-S1 at the start over, 21 now
    expect(slot("TRAIN-S1")).toBe(21);
  });

  it("start over in audit mode: the scenario's audit waits to be counted", async () => {
    const before = rows(t.agent.db.sqlite);
    await ok(t.call("POST", "/station/training/reset", { mode: "audit" }));
    await ok(tap("front", { type: "login", user: "trainee" }));
    const counting = (await screen("front")) as State & { instruction: { key: string; params?: object } };
    expect(counting).toMatchObject({ training: true, mode: "audit", operator: "trainee" });
    expect(counting.instruction).toEqual({
      key: "instruction.scan_slot_to_count",
      params: { slot: "TRAIN-S3" },
    });
    later();
    await ok(tap("front", { type: "scan", barcode: "TRAIN-S3" }));
    expect((await screen("front")).step).toBe("audit_count");
    await ok(tap("front", { type: "cancel" }));
    await ok(tap("front", { type: "logout" }));
    expect(rows(t.agent.db.sqlite)).toEqual(before);
    await ok(t.call("POST", "/station/training/reset", {}));
    expect((await screen("front")).mode).toBe("pick");
  });

  it("a seat leaves training: its screen is the station's again, with nothing of the training", async () => {
    expect(await ok(t.call("PUT", "/station/seats/front/training", { training: false }))).toEqual({
      seats: [],
    });
    expect(await screen("front")).toMatchObject({ training: false, operator: null, mode: "pick" });
    expect(await ok(t.call("PUT", "/station/seats/front/training", { training: true }))).toEqual({
      seats: ["front"],
    });
    expect((await screen("front")).training).toBe(true);
  });
});

/** A refusal: its status, its code and the field at fault; nothing changed. */
async function refused(res: Promise<Response>, status: number, code: string, path: string) {
  const r = await res;
  const body = (await r.json()) as { code: string; errors: Array<{ path: string }> };
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(body.errors.map((e) => e.path)).toContain(path);
  expect(await ok(t.call("GET", "/station/training"))).toEqual({ seats: ["front"] });
}

describe("training: bad input changes nothing", { timeout: deadline(30_000) }, () => {
  it("an unknown seat is a 404 naming the seat", async () => {
    await refused(
      t.call("PUT", "/station/seats/nope/training", { training: true }),
      404,
      "not_found",
      "seat",
    );
  });

  it("a bad body is a 400 naming the field", async () => {
    await refused(
      t.call("PUT", "/station/seats/back/training", { training: "yes" }),
      400,
      "validation_failed",
      "training",
    );
    await refused(
      t.call("PUT", "/station/seats/back/training", { training: true, seat: "back" }),
      400,
      "validation_failed",
      "(body)",
    );
    await refused(
      t.call("POST", "/station/training/reset", { mode: "pack" }),
      400,
      "validation_failed",
      "mode",
    );
  });

  it("a seat with an operator logged in at the station cannot enter training: 409 naming the seat", async () => {
    await ok(t.call("POST", "/station/seats/back/login", { user: "bob" }));
    await refused(
      t.call("PUT", "/station/seats/back/training", { training: true }),
      409,
      "invalid_state",
      "seat",
    );
    await ok(t.call("POST", "/station/seats/back/logout"));
  });

  it("an operator may see the seats in training but not change them: 403", async () => {
    await t.agent.services.auth.addUser("trainer-op", "operator-password-1", "operator");
    const res = await t.request(TOKEN_PATH, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "password",
        username: "trainer-op",
        password: "operator-password-1",
      }).toString(),
    });
    const { access_token } = (await res.json()) as { access_token: string };
    const as = (method: string, path: string, body?: unknown) =>
      t.request(path, {
        method,
        headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect(await (await as("GET", "/station/training")).json()).toEqual({ seats: ["front"] });
    await refused(
      as("PUT", "/station/seats/back/training", { training: true }),
      403,
      "forbidden",
      "Authorization",
    );
    await refused(as("POST", "/station/training/reset", {}), 403, "forbidden", "Authorization");
  });

  it("a training seat the station does not have stops the start, naming the key", async () => {
    const agent = createAgent(testConfig(tempDir(), { station: { trainingSeats: ["side"] } }), {
      log: pino({ level: "silent" }),
    });
    await expect(agent.start(false)).rejects.toMatchObject({ key: "station.trainingSeats" });
  });
});

describe("training from a scenario file (station.trainingScenario)", { timeout: deadline(30_000) }, () => {
  it("the training station starts with the file's work", async () => {
    const dir = tempDir();
    const scenario = JSON.parse(
      readFileSync(new URL("../../../examples/training-scenario.json", import.meta.url), "utf8"),
    ) as {
      requests: unknown[];
      stagedPuts: unknown[];
      audits: unknown[];
      stock: Array<{ location: string }>;
    };
    // the example without its put and audit, and its shirts in slot TRAIN-S9
    const file = join(dir, "scenario.json");
    writeFileSync(
      file,
      JSON.stringify({
        ...scenario,
        stagedPuts: [],
        audits: [],
        stock: scenario.stock.map((s, i) => (i === 0 ? { ...s, location: "TRAIN-S9" } : s)),
        racks: [{ msu: "TRAIN-M1", locations: ["TRAIN-S9", "TRAIN-S2", "TRAIN-S3"] }],
      }),
    );
    const other = await startTestAgent({ station: { trainingSeats: ["back"], trainingScenario: file } });
    try {
      const state = (await ok(other.call("GET", "/station/seats/back/screen"))) as State;
      expect(state).toMatchObject({ training: true, mode: "pick" });
      await ok(other.call("POST", "/station/seats/back/screen/actions", { type: "login", user: "trainee" }));
      const picking = (await ok(other.call("GET", "/station/seats/back/screen"))) as {
        instruction: { params?: { slot?: string } };
      };
      expect(picking.instruction.params?.slot).toBe("TRAIN-S9");
    } finally {
      await other.close();
    }
  });

  it("a scenario the station cannot seed is a 409 naming the file's part; nothing changes", async () => {
    const file = join(tempDir(), "scenario.json");
    writeFileSync(file, JSON.stringify({ stagedPuts: [{ serviceRequestId: "NONE", ppsBinId: "1" }] }));
    const other = await startTestAgent({ station: { trainingScenario: file } });
    try {
      const res = await other.call("PUT", "/station/seats/front/training", { training: true });
      const body = (await res.json()) as { code: string; errors: Array<{ path: string }> };
      expect([res.status, body.code]).toEqual([409, "invalid_state"]);
      expect(body.errors[0]?.path).toMatch(/^station\.trainingScenario\.stagedPuts\[0\]/);
      expect(await ok(other.call("GET", "/station/training"))).toEqual({ seats: [] });
      expect(((await ok(other.call("GET", "/station/seats/front/screen"))) as State).training).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe("training across a restart", { timeout: deadline(60_000) }, () => {
  it("a seat put in training stays in training when the agent starts again; one taken out stays out", async () => {
    const dir = tempDir();
    const start = async () => {
      const agent = createAgent(testConfig(dir), { log: pino({ level: "silent" }) });
      await agent.start(false);
      return agent;
    };
    let agent = await start();
    try {
      await agent.training.set("back", true);
      expect(agent.training.view()).toEqual({ seats: ["back"] });
      await agent.stop();
      agent = await start();
      expect(agent.training.view()).toEqual({ seats: ["back"] });
      expect(agent.training.database()).toBeDefined();
      await agent.training.set("back", false);
      await agent.stop();
      agent = await start();
      expect(agent.training.view()).toEqual({ seats: [] });
    } finally {
      await agent.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a kept seat with an operator logged in at the station meanwhile works against the station", async () => {
    const dir = tempDir();
    const start = async () => {
      const agent = createAgent(testConfig(dir), { log: pino({ level: "silent" }) });
      await agent.start(false);
      return agent;
    };
    let agent = await start();
    try {
      await agent.training.set("back", true);
      agent.services.operations.login("back", "ann");
      await agent.stop();
      agent = await start();
      expect(agent.training.view()).toEqual({ seats: [] });
      expect(agent.services.repos.training.seats()).toEqual([]);
    } finally {
      await agent.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("training from the screen: a supervisor's taps", { timeout: deadline(60_000) }, () => {
  const PIN = "482915";
  let a: TestAgent;
  let keyCookie = "";
  const tapAt = (seat: string, body: Record<string, unknown>) =>
    a.request(`/station/seats/${seat}/screen/actions`, {
      method: "POST",
      headers: { cookie: keyCookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const stateOf = async (seat: string) =>
    (await ok(a.call("GET", `/station/seats/${seat}/screen`))) as State & { supervised: string[] };

  beforeAll(async () => {
    a = await startTestAgent();
    await a.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
    await a.agent.services.auth.setSupervisorPin("sam", PIN);
    const keys = JSON.parse(readFileSync(join(a.dir, "screen-keys.json"), "utf8")) as Record<string, string>;
    const res = await a.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
    keyCookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  });
  afterAll(async () => a?.close());

  it("the station box's display may not enter training by itself: the taps are a supervisor's, 403 without", async () => {
    expect((await stateOf("front")).supervised).toEqual(
      expect.arrayContaining(["training", "training_reset"]),
    );
    const res = await tapAt("front", { type: "training", training: true });
    expect(res.status).toBe(403);
    expect(a.agent.training.view()).toEqual({ seats: [] });
  });

  it("a supervisor's PIN enters, starts over and leaves training, each recorded", async () => {
    const enter = await tapAt("front", { type: "training", training: true, supervisor: { pin: PIN } });
    expect(enter.status).toBe(200);
    expect(await enter.json()).toMatchObject({ result: "done", did: "training_entered" });
    expect(a.agent.training.view()).toEqual({ seats: ["front"] });
    expect((await stateOf("front")).training).toBe(true);
    // practice at the training station, then start over: the practice is gone
    expect((await tapAt("front", { type: "login", user: "trainee" })).status).toBe(200);
    expect((await stateOf("front")).operator).toBe("trainee");
    const over = await tapAt("front", { type: "training_reset", supervisor: { pin: PIN } });
    expect(await over.json()).toMatchObject({ result: "done", did: "training_reset" });
    expect(await stateOf("front")).toMatchObject({ training: true, operator: null });
    const leave = await tapAt("front", { type: "training", training: false, supervisor: { pin: PIN } });
    expect(await leave.json()).toMatchObject({ result: "done", did: "training_left" });
    expect(a.agent.training.view()).toEqual({ seats: [] });
    expect((await stateOf("front")).training).toBe(false);
    const recorded = a.agent.services.securityLog
      .list({ limit: 100 })
      .filter((e) => e.kind === "supervisor_authorised")
      .map((e) => (e.detail as { action?: string }).action);
    expect(recorded.sort()).toEqual(["training", "training", "training_reset"]);
  });

  it("refused in words, nothing changed: start over at a seat not in training; entering with an operator logged in", async () => {
    const over = await tapAt("front", { type: "training_reset", supervisor: { pin: PIN } });
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({
      code: "scan_refused",
      errors: [{ path: "type", message: "not_in_training" }],
    });
    await ok(a.call("POST", "/station/seats/front/login", { user: "alice" }));
    const enter = await tapAt("front", { type: "training", training: true, supervisor: { pin: PIN } });
    expect(enter.status).toBe(409);
    expect(await enter.json()).toMatchObject({ errors: [{ path: "type", message: "invalid_state" }] });
    expect(a.agent.training.view()).toEqual({ seats: [] });
    await ok(a.call("POST", "/station/seats/front/logout"));
  });

  it("a bad training tap is a 400 naming the field", async () => {
    const res = await tapAt("front", { type: "training", training: "yes", supervisor: { pin: PIN } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ path: string }> }).errors[0]?.path).toBe("training");
  });
});
