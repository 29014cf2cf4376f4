/**
 * End to end (issue "Station hardware", Tests): the agent runs as its own process with a station file
 * whose scanner is a serial scanner (`serial-scanner-cr`) and whose light controller is SorTexx-style
 * (`sortexx-ascii`), both on real pseudo-terminals made by socat. Every scan is written as bytes on the
 * scanner's pty, every light command is read back as bytes on the controller's, and every confirmation
 * is the controller's answer; a pick and a put complete with the notifications the spec names.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SerialPort } from "serialport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline, until } from "../../support/deadline.js";
import {
  closePort,
  linkPaths,
  openDeviceEnd,
  type PtyPair,
  ptyPair,
  writeTo,
} from "../../support/devices/pty.js";
import { itemBody } from "../../support/fixtures.js";
import { CORE, type Envelope, ITEM, pickBody, pickLine, putBody, SR } from "../../support/station.js";
import { SortexxUnit } from "./support/sortexx-unit.js";

const dir = mkdtempSync(join(tmpdir(), "pps-edge-e2e-"));
const pairs: PtyPair[] = [];
const ports: SerialPort[] = [];
let agent: ChildAgent;
let scanner: SerialPort;
let unit: SortexxUnit;
let seq = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A scan as the scanner sends it: the text, then its CR suffix (profile serial-scanner-cr). */
const scan = (text: string) => writeTo(scanner, `${text}\r`);
const frame = (address: string, command: string, param: string) => `<${address}${command}${param}0>`;

async function call(method: string, path: string, body?: unknown) {
  const res = await agent.call(method, path, body);
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(200);
  return text ? JSON.parse(text) : {};
}

/** Waits for `count` new notifications and returns their `[type, state]`. */
async function notes(count: number): Promise<Array<[string, unknown]>> {
  const got: Envelope[] = [];
  const end = Date.now() + deadline(5000);
  while (got.length < count && Date.now() < end) {
    const page = await call("GET", `/station/notifications?after=${seq}&limit=100`);
    for (const n of page.notifications as Array<{ seq: number; notification: Envelope }>) {
      seq = n.seq;
      got.push(n.notification);
    }
    if (got.length < count) await sleep(10);
  }
  return got.map((n) => [n.notification_type, n.notification_data.state]);
}

beforeAll(async () => {
  const scannerLinks = linkPaths("scanner");
  const ptlLinks = linkPaths("ptl");
  pairs.push(await ptyPair(scannerLinks), await ptyPair(ptlLinks));
  scanner = await openDeviceEnd(scannerLinks.device);
  const controller = await openDeviceEnd(ptlLinks.device);
  ports.push(scanner, controller);
  unit = new SortexxUnit(controller);
  const file = join(dir, "station.yaml");
  writeFileSync(
    file,
    `station:
  seats: [front]
  bins:
    - { id: "1", light: { device: ptl, address: "001001" } }
    - { id: "2", light: { device: ptl, address: "001002" } }
devices:
  - id: scanner-front
    kind: scanner
    profile: serial-scanner-cr
    seat: front
    transport: { serial: ${scannerLinks.agent} }
  - id: ptl
    kind: ptl-controller
    profile: sortexx-ascii
    transport: { serial: ${ptlLinks.agent} }
`,
  );
  agent = await startChildAgent(join(dir, "data"), { PPS_EDGE_STATION_FILE: file, PPS_EDGE_PPS_ID: "7" });
  // the engine sets every light at start: both modules off, read as bytes on the controller's pty
  await unit.next(0, (f) => f === frame("001002", "3", "0"), "lights off at start");
  for (const sku of ["A", "B"]) await call("POST", ITEM, itemBody(sku));
  await call("PUT", "/station/stock", { location: "S1", msu: "M1", product_sku: "A", quantity: 5 });
  await call("PUT", "/station/stock", { location: "S2", msu: "M1", product_sku: "B", quantity: 5 });
  seq = (await call("GET", "/station/notifications?after=0&limit=1")).lastSeq;
}, deadline(30_000));

afterAll(async () => {
  await agent?.stop();
  for (const p of ports) await closePort(p);
  for (const p of pairs) await p.close(); // socat, ended by its pid
  rmSync(dir, { recursive: true, force: true });
});

describe("a pick and a put driven by bytes on pseudo-terminals", () => {
  it("pick: badge, rack, item → the bin lights; the controller's acknowledgements pick and empty it", async () => {
    await scan("BADGE-alice");
    await until("badge login", async () => (await call("GET", "/station/state")).seats[0].user === "alice");
    await call("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 2), pickLine("P1-L2", "B", 1)]));
    expect(await notes(1)).toEqual([["order_information", "fulfillable"]]);
    const bin = (await call("GET", "/station/state")).pickQueue[0].ppsBinId as string;
    const address = `00100${bin}`;

    await scan("M1");
    expect(await notes(1)).toEqual([["order_information", "cancellation_locked"]]);
    let mark = unit.frames.length;
    await scan("BC-A");
    await unit.next(mark, (f) => f === frame(address, "2", "1"), "bin lit green");
    mark = unit.frames.length;
    await unit.press(address);
    expect(await notes(1)).toEqual([["order_information", "pick_started"]]);
    await unit.next(mark, (f) => f === frame(address, "3", "0"), "bin off after the pick");

    mark = unit.frames.length;
    await scan("BC-B");
    await unit.next(mark, (f) => f === frame(address, "2", "1"), "bin lit for the second line");
    mark = unit.frames.length;
    await unit.press(address);
    expect(await notes(2)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    await unit.next(mark, (f) => f === frame(address, "2", "5"), "complete bin blinks green");
    mark = unit.frames.length;
    await unit.press(address);
    await unit.next(mark, (f) => f === frame(address, "3", "0"), "emptied bin off");
    const after = await call("GET", "/station/state");
    expect(after.bins.find((b: { ppsBinId: string }) => b.ppsBinId === bin).state).toBe("empty");
  });

  it("put: item twice, slot, the tote bin's acknowledgement → complete; the tote scan releases it", async () => {
    await call("PUT", "/station/mode", { mode: "put" });
    await call("POST", SR, putBody("U1", [["A", 2]], "T-1"));
    await call("POST", `${CORE}/stage_put_expectation`, {
      serviceRequestId: "U1",
      ppsId: "7",
      ppsBinId: "2",
    });
    const staging = await notes(1);
    expect(staging.at(-1)).toEqual(["put_information", "staged"]);
    await call("POST", "/station/racks", { msu: "M2", locations: ["S9"] });

    let mark = unit.frames.length;
    await scan("BC-A");
    await unit.next(mark, (f) => f === frame("001002", "2", "1"), "tote bin lit");
    await sleep(350); // past the debounce window: a second unit, not a double delivery
    await scan("BC-A");
    await scan("S9");
    await until("slot", async () => (await call("GET", "/station/engine")).seats[0].step === "put_confirm");
    expect((await call("GET", "/station/engine")).seats[0]).toMatchObject({ quantity: 2, location: "S9" });
    mark = unit.frames.length;
    await unit.press("001002");
    expect(await notes(1)).toEqual([["put_information", "complete"]]);
    await unit.next(mark, (f) => f === frame("001002", "2", "5"), "complete tote blinks green");

    mark = unit.frames.length;
    await scan("T-1");
    await unit.next(mark, (f) => f === frame("001002", "3", "0"), "released tote's bin off");
    expect((await call("GET", `${SR}/U1?type=PUT`)).state).toBe("released");
  });
});
