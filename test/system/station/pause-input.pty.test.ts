/**
 * A pause input on the serial bus (docs/station.md#pausing-a-seat): the agent runs as its own process
 * with a station file whose 16-input DI module (`modbus-di-16`, Modbus RTU) is on a real pseudo-terminal
 * made by socat, the test answering its polls. Opening the e-stop's contact (input 15) pauses seat
 * front: its scans are refused with seat_paused, its lit bin turns steady yellow, central cannot resume
 * it, and it stays paused across a restart; closing the contact resumes it, also when that happened while
 * the agent was stopped. Each change is a notification.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SerialPort } from "serialport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline, until } from "../../support/deadline.js";
import { emulateBus, readReply } from "../../support/devices/modbus-device.js";
import { closePort, linkPaths, openDeviceEnd, type PtyPair, ptyPair } from "../../support/devices/pty.js";
import { itemBody } from "../../support/fixtures.js";
import { type Envelope, ITEM, type Json, pickBody, pickLine, SR } from "../../support/station.js";

const dir = mkdtempSync(join(tmpdir(), "pps-edge-pause-"));
const data = join(dir, "data");
const file = join(dir, "station.yaml");
let pair: PtyPair;
let device: SerialPort;
let agent: ChildAgent;
let seq = 0;
/** The DI module's inputs that read 1: input 15 is the e-stop's normally closed contact. */
const inputs = new Set<number>([15]);
const inputBytes = () =>
  [0, 1].map((b) => [...inputs].reduce((acc, n) => (n >> 3 === b ? acc | (1 << (n & 7)) : acc), 0));

async function call(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const res = await agent.call(method, path, body);
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(status);
  return text ? JSON.parse(text) : {};
}
/** A scan at a seat, as its scanner sends it (the agent runs without a debounce window). */
const scan = (barcode: string, seat = "front", status = 200) =>
  call("POST", "/station/scans", { seat, barcode }, status);
const screen = (seat = "front") => call("GET", `/station/seats/${seat}/screen`);
const bin1 = async () =>
  ((await call("GET", "/station/sim/lights")).lights as Json[]).find((l) => l.ppsBinId === "1");
async function notes(count: number): Promise<Envelope[]> {
  const got: Envelope[] = [];
  await until(`${count} notifications`, async () => {
    const page = await call("GET", `/station/notifications?after=${seq}&limit=100`);
    for (const n of page.notifications as Array<{ seq: number; notification: Envelope }>) {
      seq = n.seq;
      got.push(n.notification);
    }
    return got.length >= count;
  });
  return got;
}
const start = async () => {
  agent = await startChildAgent(data, {
    PPS_EDGE_STATION_FILE: file,
    PPS_EDGE_STATION_SCAN_DEBOUNCE_MS: "0",
  });
};

beforeAll(async () => {
  const links = linkPaths("di-pause");
  pair = await ptyPair(links);
  device = await openDeviceEnd(links.device);
  emulateBus(device, { 2: (r) => (r.fc === 2 ? readReply(2, 2, inputBytes()) : null) });
  writeFileSync(
    file,
    `station:
  seats: [front, back]
  bins:
    - { id: "1", light: { device: ptl, address: "1" } }
    - { id: "2", light: { device: ptl, address: "2" } }
  pauseInputs:
    - { device: di, channel: estop, seats: [front], reason: "Emergency stop pressed" }
devices:
  - { id: scanner-front, kind: scanner, profile: sim, seat: front, transport: sim }
  - { id: scanner-back, kind: scanner, profile: sim, seat: back, transport: sim }
  - { id: ptl, kind: ptl-controller, profile: sim, transport: sim }
  - { id: di, kind: bin-sensor, profile: modbus-di-16, transport: { serial: ${links.agent} } }
`,
  );
  await start();
  await call("POST", ITEM, itemBody("A"));
  await call("PUT", "/station/stock", { location: "S1", msu: "M1", product_sku: "A", quantity: 5 });
  await call("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 2)]));
  seq = (await call("GET", "/station/notifications?after=0&limit=1")).lastSeq;
}, deadline(60_000));

afterAll(async () => {
  await agent?.stop();
  if (device) await closePort(device);
  await pair?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an e-stop on a Modbus DI module pauses its seat", { timeout: deadline(120_000) }, () => {
  it("the contact opens: seat front paused by the input, its lit bin steady yellow, its scans refused, central's resume refused", async () => {
    await scan("BADGE-alice");
    await scan("M1");
    await scan("BC-A");
    await until("bin 1 lit green with 2", async () => (await bin1())?.quantity === 2);
    seq = (await call("GET", "/station/notifications?after=0&limit=1")).lastSeq;
    inputs.delete(15);
    await until("seat front paused", async () => (await screen()).pause !== null);
    expect((await screen()).pause).toMatchObject({
      sources: [{ kind: "input", by: "di/estop", reason: "Emergency stop pressed" }],
      resumable: false,
    });
    expect((await screen("back")).pause).toBeNull();
    await until("bin 1 steady yellow", async () => {
      const l = await bin1();
      return l?.color === "yellow" && l.blink !== true && l.quantity === undefined;
    });
    const refused = await scan("EXC-CONFIRM", "front", 409);
    expect(refused).toMatchObject({ code: "scan_refused", details: { reason: "seat_paused" } });
    const [paused] = await notes(1);
    expect(paused).toMatchObject({
      notification_type: "seat_paused",
      notification_data: { seat: "front", change: { action: "pause", source: "input:di/estop" } },
    });
    expect((await call("POST", "/station/seats/front/resume", {}, 409)).code).toBe("invalid_state");
  });

  it("a restart keeps the pause while the contact stays open; closing it resumes the seat", async () => {
    await agent.stop();
    await start();
    expect((await screen()).pause).toMatchObject({ sources: [{ kind: "input" }] });
    expect((await scan("BADGE-alice", "front", 409)).details.reason).toBe("seat_paused");
    inputs.add(15);
    await until("seat front resumed", async () => (await screen()).pause === null);
    const [resumed] = await notes(1);
    expect(resumed).toMatchObject({
      notification_type: "seat_resumed",
      notification_data: { seat: "front", paused: false, sources: [] },
    });
    expect((await scan("M1")).result).toBe("done");
  });

  it("a contact closed while the agent was stopped lets go of the seat at the first reading", async () => {
    inputs.delete(15);
    await until("seat front paused", async () => (await screen()).pause !== null);
    await notes(1);
    await agent.stop();
    inputs.add(15);
    await start();
    await until("seat front resumed at the first reading", async () => (await screen()).pause === null);
    expect((await notes(1)).map((n) => n.notification_type)).toEqual(["seat_resumed"]);
  });
});
