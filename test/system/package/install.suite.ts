/**
 * The package installed into a scratch root (`dpkg --root`, no root's rights) and run from there, as a
 * station would: install → ready, a service request whose notification waits (the broker is a closed
 * port), an edited config; then an upgrade to a newer build (the upgrade's backup step, the newer agent
 * starts on the same data) and a rollback (the older build again, `pps-edge restore` of that backup).
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { CORE, ITEM, putBody, SR } from "../../support/station.js";
import { type Debs, dpkgInstall, dpkgPurge, installedVersion, scratchRoot } from "./support/debs.js";
import {
  command,
  pendingNotifications,
  type RunningAgent,
  scratchLauncher,
  startInstalled,
} from "./support/installed-agent.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

/** Measured: `dpkg -i` alone, and from `dpkg -i` to a ready agent (milliseconds), for the report. */
export const measured: { installMs?: number; installToReadyMs?: number } = {};

export function installSuite(built: () => Debs): void {
  let debs: Debs;
  let root: string;
  let launcher: string;
  let port: number;
  let edited: string;
  let pending: string[] = [];
  let backup: string | undefined;
  let agent: RunningAgent | undefined;
  const dataDir = () => join(root, "var/lib/pps-edge");
  const db = () => join(dataDir(), "pps-edge.db");

  beforeAll(() => {
    debs = built();
    root = scratchRoot();
    launcher = join(root, "pps-edge.scratch");
  });
  afterAll(async () => {
    await agent?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe("installed into a scratch root", () => {
    it(
      "installs and runs to ready; a service request leaves its notification pending",
      async () => {
        const started = Date.now();
        await dpkgInstall(root, debs.older.deb);
        measured.installMs = Date.now() - started;
        port = await freePort();
        const closed = await freePort();
        const yaml = join(root, "etc/pps-edge/pps-edge.yaml");
        appendFileSync(
          yaml,
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
        edited = readFileSync(yaml, "utf8");
        agent = await startInstalled(scratchLauncher(root, launcher), port);
        measured.installToReadyMs = Date.now() - started;
        expect((await agent.call("POST", ITEM, itemBody("PKG-1"))).status).toBe(200);
        expect((await agent.call("POST", SR, putBody("PKG-SR-1", [["PKG-1", 3]]))).status).toBe(200);
        // staged with no operator logged in: refused, which central hears of as a stage_failure notification
        const stage = { serviceRequestId: "PKG-SR-1", ppsId: "7", ppsBinId: "1" };
        expect((await agent.call("POST", `${CORE}/stage_put_expectation`, stage)).status).toBe(200);
        await agent.untilUndelivered(1);
        await agent.stop();
        agent = undefined;
        pending = pendingNotifications(db());
        expect(pending.length).toBeGreaterThan(0);
      },
      deadline(300_000),
    );

    it(
      "upgrade, step 1: the new version's files are in, the edited config is kept, and `pps-edge backup --keep 5` saves the database",
      async () => {
        await dpkgInstall(root, debs.newer.deb);
        expect(installedVersion(root)).toBe(debs.newer.version);
        expect(readFileSync(join(root, "etc/pps-edge/pps-edge.yaml"), "utf8")).toBe(edited);
        scratchLauncher(root, launcher);
        const r = await command(launcher, ["backup", "--keep", "5"]);
        expect([r.code, r.err]).toEqual([0, ""]);
        const dir = join(dataDir(), "backups");
        const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".db")) : [];
        expect(files).toHaveLength(1);
        backup = join(dir, files[0] as string);
        expect(r.out).toContain(backup);
      },
      deadline(300_000),
    );

    it(
      "upgrade, step 2: the newer agent starts on the same data; the request and the pending notification are there",
      async () => {
        agent = await startInstalled(launcher, port);
        const sr = await agent.call("GET", `${SR}/PKG-SR-1?type=PUT`);
        expect(sr.status).toBe(200);
        await agent.stop();
        agent = undefined;
        expect(pendingNotifications(db())).toEqual(expect.arrayContaining(pending));
      },
      deadline(300_000),
    );

    it(
      "rollback: the older build again and `pps-edge restore` of the upgrade's backup; the older agent starts with it",
      async () => {
        await dpkgInstall(root, debs.older.deb);
        expect(installedVersion(root)).toBe(debs.older.version);
        expect(readFileSync(join(root, "etc/pps-edge/pps-edge.yaml"), "utf8")).toBe(edited);
        scratchLauncher(root, launcher);
        expect(backup).toBeDefined();
        const r = await command(launcher, ["restore", backup as string]);
        expect([r.code, r.err]).toEqual([0, ""]);
        agent = await startInstalled(launcher, port);
        expect((await agent.call("GET", `${SR}/PKG-SR-1?type=PUT`)).status).toBe(200);
        await agent.stop();
        agent = undefined;
        expect(pendingNotifications(db())).toEqual(expect.arrayContaining(pending));
      },
      deadline(300_000),
    );

    it(
      "purge removes the configuration and keeps the data, unless remove-on-purge asks for it",
      async () => {
        const out = await dpkgPurge(root);
        expect(existsSync(join(root, "etc/pps-edge"))).toBe(false);
        expect(existsSync(join(root, "opt/pps-edge"))).toBe(false);
        expect([existsSync(db()), out]).toEqual([true, expect.stringContaining("kept /var/lib/pps-edge")]);
        await dpkgInstall(root, debs.older.deb);
        writeFileSync(join(dataDir(), "remove-on-purge"), "");
        await dpkgPurge(root);
        expect(existsSync(dataDir())).toBe(false);
      },
      deadline(300_000),
    );
  });
}
