/**
 * The self-healing upgrade (docs/operations.md#self-healing-upgrade) with the package's real release
 * layout in a scratch root and real agent processes: the older package installed and serving, changes
 * acknowledged (an item, a put request, a notification waiting for the broker); an upgrade to a build
 * whose agent throws at start (its preinst keeps the running release, dpkg unpacks the new one); the
 * installed upgrade guard waits for readiness, gives up after UPGRADE_READY_TIMEOUT, returns
 * /opt/pps-edge/current to the kept release, restores the upgrade's backup and starts it again; every
 * acknowledged change is there, and `pps-edge status` says what happened. Then an upgrade to a good build
 * is ready in time and the record goes.
 *
 * Not covered here (no systemd as PID 1 on the test machines): the postinst's own calls (it runs with
 * DPKG_ROOT set in a scratch root, so it takes no backup and starts nothing); the test takes the backup
 * and stands in for systemd with a small start/stop script (GUARD_SERVICE), and the guard runs the
 * agent's command line without runuser (GUARD_CLI).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { CORE, ITEM, putBody, SR } from "../../support/station.js";
import { type Debs, dpkgInstall, installedVersion, scratchRoot } from "./support/debs.js";
import {
  adminCaller,
  cleanEnv,
  command,
  pendingNotifications,
  scratchLauncher,
} from "./support/installed-agent.js";

/** Measured for the report: from the faulty upgrade's `dpkg -i` to the old release ready again (ms). */
export const rollbackMeasured: { upgradeToReadyAgainMs?: number; guardMs?: number; timeoutS?: number } = {};

const TIMEOUT_S = 20;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

/** A stand-in for systemd: `svc start` runs `pps-edge run` in the background, `svc stop` ends it. */
function serviceScript(root: string, launcher: string): string {
  const path = join(root, "svc");
  const pid = join(root, "svc.pid");
  writeFileSync(
    path,
    `#!/bin/sh
case "$1" in
start) "${launcher}" run >>"${root}/svc.log" 2>&1 </dev/null & echo $! >"${pid}" ;;
stop) if [ -f "${pid}" ]; then p=$(cat "${pid}"); kill "$p" 2>/dev/null; while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; rm -f "${pid}"; fi ;;
esac
`,
    { mode: 0o755 },
  );
  return path;
}

/** The guard's exit status and what it said, run as the postinst runs it. */
function runGuard(root: string, env: NodeJS.ProcessEnv, args: string[]) {
  return new Promise<{ code: number; err: string }>((resolve) => {
    const child = spawn(join(root, "usr/lib/pps-edge/upgrade-guard"), args, {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => resolve({ code: code ?? -1, err }));
  });
}

export function rollbackSuite(built: () => Debs): void {
  let debs: Debs;
  let root: string;
  let launcher: string;
  let svc: string;
  let port: number;
  let base: string;
  let pending: string[] = [];
  const db = () => join(root, "var/lib/pps-edge/pps-edge.db");
  const ready = () =>
    fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
  const untilReady = async () => {
    const end = Date.now() + deadline(120_000);
    while (!(await ready())) {
      if (Date.now() > end) throw new Error(`no ready agent: ${readFileSync(join(root, "svc.log"), "utf8")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  let call: ReturnType<typeof adminCaller>;
  const guardEnv = () => ({ ...cleanEnv(), DPKG_ROOT: root, GUARD_CLI: launcher, GUARD_SERVICE: svc });

  beforeAll(async () => {
    debs = built();
    root = scratchRoot();
    launcher = join(root, "pps-edge.scratch");
    svc = serviceScript(root, launcher);
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    call = adminCaller(base);
  });
  afterAll(async () => {
    if (root) {
      await command(svc, ["stop"]);
      rmSync(root, { recursive: true, force: true });
    }
  });

  describe("an upgrade to a release that never becomes ready", () => {
    it(
      "the older release installed as releases/<version> with the link current, serving; changes acknowledged",
      async () => {
        await dpkgInstall(root, debs.older.deb);
        expect(readlinkSync(join(root, "opt/pps-edge/current"))).toBe(`releases/${debs.older.version}`);
        const closed = await freePort();
        writeFileSync(
          join(root, "etc/pps-edge/pps-edge.yaml"),
          [
            'ppsId: "7"',
            `http: { host: 127.0.0.1, port: ${port} }`,
            `mqtt: { url: "mqtt://127.0.0.1:${closed}", reconnectMinMs: 100 }`,
            `clientId: ${CLIENT_ID}`,
            `clientSecret: ${CLIENT_SECRET}`,
            `adminUser: ${ADMIN}`,
            `adminPassword: ${ADMIN_PASSWORD}`,
            "log: { level: warn }",
            "",
          ].join("\n"),
        );
        mkdirSync(join(root, "etc/default"), { recursive: true });
        writeFileSync(join(root, "etc/default/pps-edge"), `UPGRADE_READY_TIMEOUT=${TIMEOUT_S}\n`);
        scratchLauncher(root, launcher);
        await command(svc, ["start"]);
        await untilReady();
        expect((await call("POST", ITEM, itemBody("RB-1"))).status).toBe(200);
        expect((await call("POST", SR, putBody("RB-SR-1", [["RB-1", 2]]))).status).toBe(200);
        const stage = { serviceRequestId: "RB-SR-1", ppsId: "7", ppsBinId: "1" };
        expect((await call("POST", `${CORE}/stage_put_expectation`, stage)).status).toBe(200);
        const undelivered = async () => {
          const r = (await (await fetch(`${base}/readyz`)).json()) as {
            checks: { outbox?: { detail?: string } };
          };
          return Number(/^(\d+) undelivered/.exec(r.checks.outbox?.detail ?? "")?.[1] ?? 0);
        };
        const end = Date.now() + deadline(30_000);
        while ((await undelivered()) < 1) {
          if (Date.now() > end) throw new Error("no notification became pending");
          await new Promise((r) => setTimeout(r, 100));
        }
        await command(svc, ["stop"]);
        pending = pendingNotifications(db());
        expect(pending.length).toBeGreaterThan(0);
      },
      deadline(300_000),
    );

    it(
      "goes back by itself: the guard gives up after its timeout, current points at the kept release, the backup is restored, ready again with nothing acknowledged lost",
      async () => {
        const started = Date.now();
        await dpkgInstall(root, debs.faulty.deb);
        expect(installedVersion(root)).toBe(debs.faulty.version);
        // the preinst kept the release that ran; dpkg removed its own copy of it
        const kept = readFileSync(join(root, "opt/pps-edge/kept/.running"), "utf8").trim();
        expect(kept).toBe(debs.older.version);
        expect(existsSync(join(root, "opt/pps-edge/kept", kept, "dist/app/main.js"))).toBe(true);
        expect(existsSync(join(root, "opt/pps-edge/releases", debs.older.version))).toBe(false);
        expect(readlinkSync(join(root, "opt/pps-edge/current"))).toBe(`releases/${debs.faulty.version}`);
        // what the postinst does on a station: the backup, the start, the guard
        const backup = await command(launcher, ["backup", "--keep", "5"]);
        expect([backup.code, backup.err]).toEqual([0, ""]);
        const file = /\S+\.db/.exec(backup.out)?.[0] as string;
        expect(existsSync(file)).toBe(true);
        // as the postinst: the guard's clock starts with the start (GUARD_STARTED), not after it returns
        const guardStarted = Date.now();
        await command(svc, ["start"]);
        const guard = await runGuard(
          root,
          { ...guardEnv(), GUARD_STARTED: String(Math.floor(guardStarted / 1000)) },
          [kept, debs.faulty.version, file],
        );
        rollbackMeasured.guardMs = Date.now() - guardStarted;
        rollbackMeasured.upgradeToReadyAgainMs = Date.now() - started;
        rollbackMeasured.timeoutS = TIMEOUT_S;
        expect([guard.code, guard.err]).toEqual([3, expect.stringContaining(`returning to ${kept}`)]);
        expect(guard.err).toContain(`was not ready within ${TIMEOUT_S} s`);
        expect(guard.err).toContain(`back on ${kept}, ready`);
        expect(readlinkSync(join(root, "opt/pps-edge/current"))).toBe(`kept/${kept}`);
        expect(await ready()).toBe(true);
        expect((await call("GET", `${SR}/RB-SR-1?type=PUT`)).status).toBe(200);
        const status = await command(launcher, ["status"]);
        expect(status.code).toBe(0);
        expect(status.out).toContain(`upgrade rolled back at `);
        expect(status.out).toContain(`pps-edge ${debs.faulty.version} was not ready within ${TIMEOUT_S} s`);
        expect(status.out).toContain(`running ${kept} again, database from ${file}`);
        const json = JSON.parse((await command(launcher, ["status", "--json"])).out) as {
          upgradeRollback?: { from: string; to: string };
        };
        expect(json.upgradeRollback).toMatchObject({ from: debs.faulty.version, to: kept });
        await command(svc, ["stop"]);
        expect(pendingNotifications(db())).toEqual(expect.arrayContaining(pending));
      },
      deadline(600_000),
    );

    it(
      "a later upgrade to a good release is ready in time: the guard says so and the record goes",
      async () => {
        await dpkgInstall(root, debs.newer.deb);
        // the release that ran (the kept one) is kept again
        expect(readFileSync(join(root, "opt/pps-edge/kept/.running"), "utf8").trim()).toBe(
          debs.older.version,
        );
        await command(svc, ["start"]);
        const guard = await runGuard(root, guardEnv(), [debs.older.version, debs.newer.version, ""]);
        expect([guard.code, guard.err]).toEqual([0, expect.stringContaining(`${debs.newer.version} ready`)]);
        expect(readlinkSync(join(root, "opt/pps-edge/current"))).toBe(`releases/${debs.newer.version}`);
        const status = await command(launcher, ["status"]);
        expect([status.code, status.out.includes("rolled back")]).toEqual([0, false]);
        await command(svc, ["stop"]);
      },
      deadline(300_000),
    );
  });
}
