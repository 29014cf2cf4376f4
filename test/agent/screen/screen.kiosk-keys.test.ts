/**
 * The kiosk's key files (docs/operations.md#kiosk): with `station.kioskKeysDir` the agent writes each
 * seat's key as `<seat>.key`, mode 0640 with the folder's group, so the display's user (a member of that
 * group) reads it while `screen-keys.json` stays 0600; the key read from the file opens the seat's screen.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";

let t: TestAgent;
const kiosk = join(tempDir("pps-edge-kiosk-"), "kiosk");
// a group the test's user is in besides its own primary group, where it has one: the files take the
// folder's group, not the process's
const groups = process.getgroups?.() ?? [];
const gid = groups.find((g) => g !== process.getgid?.()) ?? process.getgid?.() ?? 0;

beforeAll(async () => {
  mkdirSync(kiosk, { mode: 0o750 });
  // a stale key of an earlier start is replaced
  writeFileSync(join(kiosk, "front.key"), "old-key\n", { mode: 0o600 });
  chownSync(kiosk, process.getuid?.() ?? 0, gid);
  chmodSync(kiosk, 0o750);
  t = await startTestAgent({ station: { kioskKeysDir: kiosk } });
});
afterAll(async () => t.close());

describe("the kiosk's key files", () => {
  it("one file per seat, 0640 with the folder's group, holding the seat's key; screen-keys.json stays 0600", () => {
    const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    expect(statSync(join(t.dir, SCREEN_KEYS_FILE)).mode & 0o777).toBe(0o600);
    for (const seat of ["front", "back"]) {
      const file = join(kiosk, `${seat}.key`);
      const st = statSync(file);
      expect([seat, st.mode & 0o777, st.gid]).toEqual([seat, 0o640, gid]);
      expect(readFileSync(file, "utf8")).toBe(`${keys[seat]}\n`);
    }
  });

  it("the key read from the kiosk's file opens the seat's screen", async () => {
    const key = readFileSync(join(kiosk, "front.key"), "utf8").trim();
    const res = await t.request(`/screen/front?key=${encodeURIComponent(key)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(/^pps_screen_front=/);
  });
});
