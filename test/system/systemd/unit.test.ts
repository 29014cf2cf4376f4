/**
 * The systemd unit (systemd/pps-edge.service): `Type=notify` with a watchdog, the launcher as
 * ExecStart, device access to serial, hidraw and raw USB devices only, `systemd-analyze security --offline=true`
 * exposure at most 2.0, and `systemd-analyze verify` without a word. verify checks that ExecStart's
 * program exists and is executable, and /usr/bin/pps-edge exists only where the package is installed,
 * so it verifies a copy of the unit whose ExecStart names a stub (the one line changed).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";

const UNIT = fileURLToPath(new URL("../../../systemd/pps-edge.service", import.meta.url));
const text = readFileSync(UNIT, "utf8");
const values = (key: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));

const haveAnalyze = spawnSync("sh", ["-c", "command -v systemd-analyze"]).status === 0;
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function analyze(...args: string[]) {
  const r = spawnSync("systemd-analyze", args, {
    encoding: "utf8",
    env: { ...process.env, SYSTEMD_COLORS: "0" },
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

describe("the unit", () => {
  it("is Type=notify with a watchdog, started by the launcher", () => {
    expect(values("Type")).toEqual(["notify"]);
    // the messages come from systemd-notify, a child of the agent (src/app/systemd-notify.ts)
    expect(values("NotifyAccess")).toEqual(["all"]);
    expect(Number(values("WatchdogSec")[0])).toBeGreaterThan(0);
    expect(values("ExecStart")).toEqual(["/usr/bin/pps-edge run"]);
  });

  it("lets through serial, hidraw and raw USB (libusb) devices only", () => {
    expect(values("DevicePolicy")).toEqual(["closed"]);
    expect(values("DeviceAllow")).toEqual([
      "char-ttyS rw",
      "char-ttyUSB rw",
      "char-ttyACM rw",
      "char-hidraw rw",
      "char-usb_device rw",
    ]);
    expect(values("PrivateDevices")).toEqual([]);
  });
});

const skipped = haveAnalyze
  ? ""
  : " (skipped: systemd-analyze is not installed here; it is in Debian's package systemd, which .ci/run installs)";

describe.skipIf(!haveAnalyze)(`systemd-analyze on the unit${skipped}`, () => {
  it("rates its exposure at most 2.0", () => {
    const r = analyze("security", "--offline=true", UNIT);
    const score = /Overall exposure level for pps-edge\.service: (\d+\.\d+)/.exec(r.out)?.[1];
    expect(score, r.out).toBeDefined();
    expect(Number(score)).toBeLessThanOrEqual(2.0);
  });

  it("verifies without a word (ExecStart pointed at a stub)", () => {
    const dir = tempDir();
    scratch.push(dir);
    const stub = join(dir, "pps-edge");
    writeFileSync(stub, "#!/bin/sh\nexit 0\n");
    chmodSync(stub, 0o755);
    const copy = join(dir, "pps-edge.service");
    const stubbed = text.replace(/^ExecStart=\/usr\/bin\/pps-edge /m, `ExecStart=${stub} `);
    expect(stubbed).not.toBe(text);
    writeFileSync(copy, stubbed);
    expect(analyze("verify", copy)).toEqual({ code: 0, out: "" });
  });
});
