/**
 * The agent tells the service manager the truth (systemd/pps-edge.service is `Type=notify`): a real
 * agent, started with `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` as systemd starts it, sends `READY=1` with
 * its status once up, `WATCHDOG=1` every half watchdog interval, and `STOPPING=1` when told to stop;
 * on a socket path and on an abstract socket alike, through the real systemd-notify.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { statusLine } from "../../../src/app/systemd.part.js";
import { systemdNotifier, watchdogIntervalMs } from "../../../src/app/systemd-notify.js";
import { REPORT_PREFIX } from "../../../src/services/report/report.service.js";
import { tempDir } from "../../support/agent.js";
import { startChildAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";
import { type NotifySocket, openNotifySocket } from "../../support/notify-socket.js";

const haveSystemdNotify = spawnSync("sh", ["-c", "command -v systemd-notify"]).status === 0;
const silent = pino({ level: "silent" });
/** A start takes seconds, much longer on a busy machine: these tests are about the messages, not speed. */
const START_MS = 120_000;
const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function scratch(): string {
  const dir = tempDir();
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function socketAt(address: string): Promise<NotifySocket> {
  const socket = await openNotifySocket(address);
  cleanup.push(() => socket.close());
  return socket;
}

describe("the watchdog interval", () => {
  it("is half of WATCHDOG_USEC, for this process only, and only with a notify socket", () => {
    const NOTIFY_SOCKET = "/run/x";
    expect(watchdogIntervalMs({ NOTIFY_SOCKET, WATCHDOG_USEC: "30000000" }, 7)).toBe(15_000);
    expect(watchdogIntervalMs({ NOTIFY_SOCKET, WATCHDOG_USEC: "30000000", WATCHDOG_PID: "7" }, 7)).toBe(
      15_000,
    );
    expect(
      watchdogIntervalMs({ NOTIFY_SOCKET, WATCHDOG_USEC: "30000000", WATCHDOG_PID: "8" }, 7),
    ).toBeUndefined();
    expect(watchdogIntervalMs({ NOTIFY_SOCKET }, 7)).toBeUndefined();
    expect(watchdogIntervalMs({ WATCHDOG_USEC: "30000000" }, 7)).toBeUndefined();
  });

  it("means nothing is sent when NOTIFY_SOCKET is unset", () => {
    expect(systemdNotifier({}, { log: silent })).toBeUndefined();
  });
});

describe("the status line", () => {
  it("gives the outbox depth, the broker connection and the devices that are down", () => {
    const devices = [
      { id: "scanner-1", connected: true },
      { id: "lights", connected: false },
    ];
    expect(statusLine({ undelivered: 3, dead: 1, broker: "disconnected", devices })).toBe(
      "outbox 3 waiting, 1 dead; broker disconnected; devices 1 of 2 up, down: lights",
    );
    expect(statusLine({ undelivered: 0, dead: 0, broker: "off", devices: devices.slice(0, 1) })).toBe(
      "outbox 0 waiting, 0 dead; broker off; devices 1 of 1 up",
    );
  });
});

describe.skipIf(!haveSystemdNotify)("an agent run with a notify socket", () => {
  for (const kind of ["a socket path", "an abstract socket"] as const) {
    it(
      `sends READY, WATCHDOG and STOPPING on ${kind}`,
      async () => {
        const name = `pps-edge-notify-${randomBytes(4).toString("hex")}`;
        const address = kind === "a socket path" ? join(scratch(), "notify.sock") : `@${name}`;
        const socket = await socketAt(address);
        const agent = await startChildAgent(
          scratch(),
          {
            NOTIFY_SOCKET: socket.address,
            WATCHDOG_USEC: "600000",
          },
          START_MS,
        );
        cleanup.push(() => agent.kill());

        const ready = await socket.waitFor("READY=1");
        // the simulated station's devices, all up; no MQTT in this test
        expect(ready.find((a) => a.startsWith("STATUS="))).toMatch(
          /^STATUS=outbox 0 waiting, 0 dead; broker off; devices (\d+) of \1 up$/,
        );
        // every 300 ms: two pings within a few seconds, each after READY
        await socket.waitFor("WATCHDOG=1");
        const readyAt = socket.messages.indexOf(ready);
        const pings = () => socket.messages.filter((m) => m.includes("WATCHDOG=1")).length;
        const first = pings();
        await expect.poll(pings, { timeout: deadline(10_000) }).toBeGreaterThan(first);
        expect(socket.messages.findIndex((m) => m.includes("WATCHDOG=1"))).toBeGreaterThan(readyAt);

        if (kind === "a socket path") {
          // a report's notification waits in the outbox (no broker here): the status says so
          const res = await agent.call("POST", `${REPORT_PREFIX}/generate-inventory-report`);
          expect(res.status).toBeLessThan(300);
          await socket.waitFor("STATUS=outbox 1 waiting", 30_000);
        }

        await agent.stop();
        expect(await socket.waitFor("STOPPING=1", 10_000)).toContainEqual("STATUS=stopping");
      },
      deadline(180_000),
    );
  }

  it(
    "says why the start failed, in the status",
    async () => {
      const socket = await socketAt(join(scratch(), "notify.sock"));
      const missing = join(scratch(), "no-such-station.yaml");
      const run = spawnSync(process.execPath, ["--import", "tsx", "src/app/main.ts", "run"], {
        cwd: fileURLToPath(new URL("../../..", import.meta.url)),
        env: {
          ...process.env,
          PPS_EDGE_DATA_DIR: scratch(),
          PPS_EDGE_STATION_FILE: missing,
          NOTIFY_SOCKET: socket.address,
        },
        encoding: "utf8",
        timeout: deadline(120_000),
      });
      expect(run.status).toBe(1);
      const line = run.stderr.trim().split("\n").at(-1) ?? "";
      expect(line).toMatch(/^pps-edge: cannot start: .*no-such-station\.yaml/);
      expect(await socket.waitFor("STATUS=", 10_000)).toEqual([`STATUS=${line}`]);
      expect(socket.messages.flat().filter((a) => a === "READY=1")).toEqual([]);
    },
    deadline(180_000),
  );

  it(
    "pings no watchdog that watches another process (WATCHDOG_PID)",
    async () => {
      const socket = await socketAt(join(scratch(), "notify.sock"));
      const agent = await startChildAgent(
        scratch(),
        {
          NOTIFY_SOCKET: socket.address,
          WATCHDOG_USEC: "200000",
          WATCHDOG_PID: "1",
        },
        START_MS,
      );
      cleanup.push(() => agent.kill());
      await socket.waitFor("READY=1");
      await new Promise((r) => setTimeout(r, 1000));
      await agent.stop();
      await socket.waitFor("STOPPING=1", 10_000);
      expect(socket.messages.filter((m) => m.includes("WATCHDOG=1"))).toEqual([]);
    },
    deadline(180_000),
  );
});
