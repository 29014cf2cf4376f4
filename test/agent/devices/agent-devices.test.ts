/**
 * The hub inside the agent: device health in GET /station/state, the station file's seats and bins set
 * up the station, a declared device that is absent does not stop the start (/readyz names it), and a
 * bad station file does, naming the file, the path and the reason.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";

const agents: TestAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

async function state(t: TestAgent) {
  const res = await t.call("GET", "/station/state");
  expect(res.status).toBe(200);
  return (await res.json()) as {
    seats: Array<{ seat: string }>;
    bins: Array<{ ppsBinId: string }>;
    devices: Array<{ id: string; connected: boolean; transport: string; lastError: string | null }>;
  };
}

describe("devices in the agent", () => {
  it("runs the embedded simulated station and shows its devices in the station state and metrics", async () => {
    const t = await startTestAgent();
    agents.push(t);
    const s = await state(t);
    expect(s.devices.map((d) => [d.id, d.connected, d.transport])).toEqual([
      ["sim-ptl", true, "sim"],
      ["sim-sensors", true, "sim"],
      ["sim-scanner-front", true, "sim"],
      ["sim-scanner-back", true, "sim"],
    ]);
    expect(t.agent.devices.source).toBeNull();
    expect(await t.agent.metrics.render()).toContain(
      'device_connected{device="sim-scanner-front",kind="scanner"} 1',
    );
  });

  it("takes seats and bins from the station file and starts with a declared controller absent", async () => {
    const dir = tempDir();
    const file = join(dir, "station.yaml");
    writeFileSync(
      file,
      `station:
  seats: [front]
  bins:
    - { id: A1, light: { device: ptl, address: "001001" } }
    - { id: A2, light: { device: ptl, address: "001002" } }
devices:
  - { id: ptl, kind: ptl-controller, profile: sortexx-ascii, transport: { serial: ${join(dir, "no-such-port")} } }
  - { id: scanner, kind: scanner, profile: sim, seat: front, transport: sim }
`,
    );
    const t = await startTestAgent({ station: { file } });
    agents.push(t);
    const s = await state(t);
    expect(s.seats.map((x) => x.seat)).toEqual(["front"]);
    expect(s.bins.map((b) => b.ppsBinId)).toEqual(["A1", "A2"]);
    const ptl = s.devices.find((d) => d.id === "ptl");
    expect(ptl?.connected).toBe(false);
    expect(t.agent.devices.station.station.bins[0]?.light).toEqual({ device: "ptl", address: "001001" });
    // ready all the same (an unplugged controller is retried, not fatal), and /readyz names it
    const ready = await t.request("/readyz");
    expect(ready.status).toBe(200);
    const { checks } = (await ready.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
    expect(checks.devices?.ok).toBe(true);
    expect(checks.devices?.detail).toMatch(
      new RegExp(`^1 of 2 connected; not connected: ptl \\(${join(dir, "no-such-port")}[:)]`),
    );
  });

  it("refuses to start on a bad station file, naming the file, the path and the reason", async () => {
    const file = join(tempDir(), "station.yaml");
    writeFileSync(
      file,
      `station:
  seats: [front]
  bins: [{ id: "1", light: { device: ptl2, address: "1" } }]
devices: []
`,
    );
    await expect(startTestAgent({ station: { file } })).rejects.toThrow(
      `station file ${file}: station.bins.0.light.device: names no device (ptl2)`,
    );
  });
});
