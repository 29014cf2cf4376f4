/**
 * Training's pure pieces (docs/station.md#training): the training station's config reaches nobody, the
 * screen port serves each seat from the station it works against and moves its open streams, and a
 * scenario the agent would refuse is refused naming the part at fault.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { trainingConfigOf } from "../../../src/app/training.part.js";
import {
  defaultTrainingScenario,
  readTrainingScenario,
  seedTraining,
} from "../../../src/app/training-scenario.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { isAppError } from "../../../src/domain/errors.js";
import { StartError } from "../../../src/start-error.js";
import type { ScreenPort } from "../../../src/station/screen/routes/screen.routes.js";
import { createTrainingScreenPort } from "../../../src/station/screen/training-port.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("the training station's config", () => {
  const real = parseConfig({
    dataDir: "/var/lib/pps-edge",
    mqtt: { url: "mqtts://central.example.com:8883" },
    webhooks: {
      endpoints: [
        {
          id: "central",
          url: "https://central.example.com/hook",
          secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
        },
      ],
    },
    printing: { mode: "station" },
    station: { file: "/etc/pps-edge/station.yaml", trainingSeats: ["front"] },
  });
  const config = trainingConfigOf(
    real,
    { seats: ["left", "right"], bins: ["B1", "B2"] },
    "/var/lib/pps-edge/training",
    "put",
  );

  it("has MQTT off, no webhook endpoints, nothing printed, and its own data folder", () => {
    expect(config.mqtt.url).toBe("off");
    expect(config.webhooks.endpoints).toEqual([]);
    expect(config.printing.mode).toBe("external");
    expect(config.dataDir).toBe("/var/lib/pps-edge/training");
  });

  it("runs the station's seats and bins on the simulated devices, in the mode asked for", () => {
    expect(config.station.file).toBeUndefined();
    expect(config.station).toMatchObject({
      seats: ["left", "right"],
      bins: ["B1", "B2"],
      initialMode: "put",
      trainingSeats: [],
      stagingWithLogout: true,
    });
    // the station's own config is left as it was
    expect(real.mqtt.url).toBe("mqtts://central.example.com:8883");
    expect(real.station.file).toBe("/etc/pps-edge/station.yaml");
  });
});

/** A port that answers with its name and the seat, and counts its open subscriptions. */
function fakePort(name: string) {
  const open = new Map<string, number>();
  const port: ScreenPort = {
    seats: ["front", "back"],
    state: (seat) => `${name}:${seat}`,
    subscribe(seat, listener) {
      open.set(seat, (open.get(seat) ?? 0) + 1);
      listener(`${name}:${seat}`);
      return () => open.set(seat, (open.get(seat) ?? 0) - 1);
    },
    act: (seat) => ({ seat, result: "done", calls: [] }) as never,
  };
  return { port, open };
}

describe("the screen port of a station with seats in training", () => {
  it("serves a seat in training from the training station, and moves its open streams in and out", () => {
    const own = fakePort("station");
    const training = fakePort("training");
    const inTraining = new Set<string>();
    const router = createTrainingScreenPort(own.port, (seat) =>
      inTraining.has(seat) ? training.port : null,
    );
    const seen: string[] = [];
    router.port.subscribe("front", (json) => seen.push(json));
    expect(router.port.state("front")).toBe("station:front");

    inTraining.add("front");
    router.moved("front");
    expect(router.port.state("front")).toBe("training:front");
    expect(router.port.state("back")).toBe("station:back");
    expect(seen).toEqual(["station:front", "training:front"]);
    expect([own.open.get("front"), training.open.get("front")]).toEqual([0, 1]);

    inTraining.delete("front");
    router.moved("front");
    expect(seen).toEqual(["station:front", "training:front", "station:front"]);
    expect([own.open.get("front"), training.open.get("front")]).toEqual([1, 0]);
  });

  it("a closed stream is not moved", () => {
    const own = fakePort("station");
    const training = fakePort("training");
    const router = createTrainingScreenPort(own.port, () => training.port);
    const close = router.port.subscribe("front", () => {});
    close();
    router.moved("front");
    expect([own.open.get("front") ?? 0, training.open.get("front")]).toEqual([0, 0]);
  });
});

/** Use cases that take everything: what the scenario's own checks refuse is what is left. */
const services = {
  items: { upsertAsync: async () => ({}) },
  operations: { setStock: () => {}, rackPresented: () => {}, stagePut: () => {} },
  requests: { createAsync: async () => ({ created: true, view: {} }) },
  audits: { create: () => ({ action: "create", audit_id: "a" }), act: () => ({}) },
} as unknown as Parameters<typeof seedTraining>[0];

describe("a training scenario the agent would refuse", () => {
  async function refusal(scenario: unknown): Promise<{ message: string; paths: string[] }> {
    try {
      await seedTraining(services, scenario as never, "1");
    } catch (e) {
      if (!isAppError(e)) throw e;
      return { message: e.message, paths: e.errors.map((x) => x.path) };
    }
    throw new Error("the scenario was taken");
  }

  it("names the stock line at fault", async () => {
    const s = defaultTrainingScenario(["1"]);
    const r = await refusal({ ...s, stock: [...(s.stock ?? []), { location: "S9", quantity: -1 }] });
    expect(r.message).toMatch(/stock\[3\]/);
    expect(r.paths.every((p) => p.startsWith("stock[3]"))).toBe(true);
  });

  it("names an unknown member of the scenario", async () => {
    const r = await refusal({ mode: "pick", orders: [] });
    expect(r.paths).toEqual(["scenario"]);
  });

  it("takes the default scenario whole", async () => {
    await expect(seedTraining(services, defaultTrainingScenario(["1", "2"]), "1")).resolves.toBeUndefined();
  });
});

describe("a training scenario file (station.trainingScenario)", () => {
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const stops = (path: string) => {
    try {
      readTrainingScenario(path);
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      return { key: e.key, problem: e.problem };
    }
    throw new Error("the file was taken");
  };

  it("examples/training-scenario.json is one, and seeds whole", async () => {
    const example = readTrainingScenario(
      fileURLToPath(new URL("../../../examples/training-scenario.json", import.meta.url)),
    );
    expect(example.requests?.length).toBeGreaterThan(0);
    await expect(seedTraining(services, example, "1")).resolves.toBeUndefined();
  });

  it("a missing file, a file that is not JSON and one that is not a scenario stop the start, naming the key", () => {
    expect(stops(join(dir, "absent.json"))).toMatchObject({
      key: "station.trainingScenario",
      problem: expect.stringMatching(/cannot be read/),
    });
    expect(stops(file("broken.json", "{ items: "))).toMatchObject({
      key: "station.trainingScenario",
      problem: expect.stringMatching(/is not JSON/),
    });
    expect(stops(file("other.json", JSON.stringify({ mode: "pack" })))).toMatchObject({
      key: "station.trainingScenario",
      problem: expect.stringMatching(/mode/),
    });
  });
});
