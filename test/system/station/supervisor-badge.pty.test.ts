/**
 * A supervisor's badge scanned on the seat's real scanner (docs/station.md#supervisor-at-the-seat): the
 * agent runs as its own process with seat front's scanner in serial mode (`serial-scanner-cr`) on a real
 * pseudo-terminal made by socat, the test typing what the scanner sends. With the seat's supervisor
 * prompt open for a mode switch, the badge authorises it once, recorded with both names; with none open
 * it is refused in words and acts on nothing; a wrong badge and a stale screen are answered to the
 * prompt. The badge's secret is never in the log or the screen.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SerialPort } from "serialport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { runCli } from "../../support/cli.js";
import { deadline, until } from "../../support/deadline.js";
import {
  closePort,
  linkPaths,
  openDeviceEnd,
  type PtyPair,
  ptyPair,
  writeTo,
} from "../../support/devices/pty.js";
import type { Json } from "../../support/station.js";

const dir = mkdtempSync(join(tmpdir(), "pps-edge-sup-badge-"));
const data = join(dir, "data");
const file = join(dir, "station.yaml");
let pair: PtyPair;
let device: SerialPort;
let agent: ChildAgent;
let badge = "";
let log = "";
const ACTIONS = "/station/seats/front/screen/actions";

async function call(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const res = await agent.call(method, path, body);
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(status);
  return text ? JSON.parse(text) : {};
}
const screen = () => call("GET", "/station/seats/front/screen");
const mode = async () => (await call("GET", "/station/state")).mode;
const authorised = async () =>
  ((await call("GET", "/station/security-events?kind=supervisor_authorised")).events as Json[]).filter(
    (e) => e.kind === "supervisor_authorised",
  );
/** The seat's prompt opened for a tap, on the state the screen shows now. */
async function openPrompt(tap: Json) {
  const { version } = await screen();
  await call("POST", ACTIONS, { type: "supervisor_prompt", pending: { ...tap, version } });
}
/** What the scanner sends for a badge, and the prompt's next answer. */
async function scanBadge(text: string): Promise<Json | null> {
  const before = ((await screen()).supervisorScan as Json | null)?.n ?? 0;
  await writeTo(device, `${text}\r`);
  let answer: Json | null = null;
  await until("the prompt's answer", async () => {
    answer = (await screen()).supervisorScan as Json | null;
    return (answer?.n ?? 0) > before;
  });
  return answer;
}

beforeAll(async () => {
  const links = linkPaths("sup-badge");
  pair = await ptyPair(links);
  device = await openDeviceEnd(links.device);
  writeFileSync(
    file,
    `station:
  seats: [front]
  bins:
    - { id: "1", light: { device: ptl, address: "1" } }
devices:
  - { id: scanner-front, kind: scanner, profile: serial-scanner-cr, seat: front, transport: { serial: ${links.agent} } }
  - { id: ptl, kind: ptl-controller, profile: sim, transport: sim }
`,
  );
  agent = await startChildAgent(data, {
    PPS_EDGE_STATION_FILE: file,
    PPS_EDGE_STATION_SCAN_DEBOUNCE_MS: "0",
    PPS_EDGE_LOG_LEVEL: "debug",
  });
  agent.proc.stdout?.on("data", (d) => {
    log += String(d);
  });
  const env = { PPS_EDGE_DATA_DIR: data, PPS_EDGE_LOG_LEVEL: "silent" };
  expect(
    (await runCli(["user", "add", "sam", "--role", "admin"], env, "a long enough password\n")).code,
  ).toBe(0);
  const made = await runCli(["user", "supervisor", "sam", "--badge"], env);
  badge = /SUP-[A-Za-z0-9_-]+/.exec(made.out)?.[0] ?? "";
  expect(badge).toMatch(/^SUP-.{32}$/);
  await call("POST", "/station/seats/front/login", { user: "alice" });
}, deadline(60_000));

afterAll(async () => {
  await agent?.stop();
  if (device) await closePort(device);
  await pair?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a supervisor's badge on the seat's serial scanner", { timeout: deadline(120_000) }, () => {
  it("with no supervisor's prompt open it acts on nothing and is refused in words", async () => {
    await writeTo(device, `${badge}\r`);
    await until("the refusal", async () => (await screen()).lastEvent?.result === "refused");
    const s = await screen();
    expect(s.lastEvent).toMatchObject({
      result: "refused",
      text: "SUP-…",
      message: { key: "refusal.no_supervisor_prompt" },
    });
    expect(s.alert).toMatchObject({
      reason: { key: "refusal.no_supervisor_prompt" },
      instead: { key: "instead.no_supervisor_prompt" },
    });
    expect(await mode()).toBe("pick");
    expect(await authorised()).toEqual([]);
  });

  it("a badge that is no supervisor's is refused to the open prompt, which stays open", async () => {
    await openPrompt({ type: "mode", mode: "put" });
    expect(await scanBadge("SUP-not-a-supervisors-badge-0000")).toMatchObject({ answer: "refused" });
    expect(await mode()).toBe("pick");
  });

  it("the supervisor's badge authorises the prompt's tap once, recorded with both names", async () => {
    // the answer changed the screen: the page tells the agent its prompt again, on the state it shows
    await openPrompt({ type: "mode", mode: "put" });
    expect(await scanBadge(badge)).toMatchObject({ answer: "ok" });
    expect(await mode()).toBe("put");
    expect(await authorised()).toMatchObject([
      {
        username: "sam",
        channel: "screen",
        address: "scanner:scanner-front",
        detail: { operator: "alice", seat: "front", action: "mode", result: "done", caller: "admin" },
      },
    ]);
    // one tap only: the prompt is used up, the badge again acts on nothing
    await writeTo(device, `${badge}\r`);
    await until("the refusal", async () => (await screen()).lastEvent?.result === "refused");
    expect(await mode()).toBe("put");
  });

  it("a prompt opened on a screen that changed since is refused as stale, and closes", async () => {
    const { version } = await screen();
    // the screen changes: a scan refused at the seat is its last event now
    await call("POST", "/station/scans", { seat: "front", barcode: "NOTHING-1" }, 409);
    await call("POST", ACTIONS, {
      type: "supervisor_prompt",
      pending: { type: "mode", mode: "pick", version },
    });
    expect(await scanBadge(badge)).toMatchObject({ answer: "stale" });
    expect(await mode()).toBe("put");
    await writeTo(device, `${badge}\r`);
    await until(
      "the refusal",
      async () => (await screen()).lastEvent?.message?.key === "refusal.no_supervisor_prompt",
    );
  });

  it("the prompt takes only a supervisor's tap, and refuses anything else naming the field", async () => {
    const res = await agent.call("POST", ACTIONS, {
      type: "supervisor_prompt",
      pending: { type: "confirm" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ path: "pending.type" }] });
    const bad = await agent.call("POST", ACTIONS, { type: "supervisor_prompt", pending: { type: "nope" } });
    expect(bad.status).toBe(400);
  });

  it("the badge's secret is in no log line", () => {
    expect(log).toContain("station input");
    expect(log).not.toContain(badge.slice(4));
  });
});
