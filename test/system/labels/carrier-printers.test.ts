/**
 * The carrier's label on the station's real printers: a pick+pack order with `carrier_label_url`, the
 * carrier's server on loopback (HTTPS), and the label sent through a real cupsd (test/support/cupsd.ts)
 * to a printer on a loopback socket, and raw to a (fake) Zebra on TCP 9100: CUPS's device receives the
 * carrier's PDF byte for byte, once, and the bin is released, while a carrier's ZPL is refused in words by
 * a PDF queue and the bin held; the Zebra receives the carrier's ZPL unchanged, and a carrier's PNG as a
 * ZPL graphic, each once (docs/station.md#carrier-labels).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { type CarrierLabelServer, startCarrierLabelServer } from "../../support/carrier-label-server.js";
import { type SocketPrinter, startCupsd, startSocketPrinter, type TestCupsd } from "../../support/cupsd.js";
import { until } from "../../support/deadline.js";
import { type FakeZebra, startFakeZebra } from "../../support/fake-zebra.js";
import { ok, pickPackOne, seedItem, setStock } from "../../support/station.js";

type Tile = ScreenState["bins"][number];
const QUEUE = "CARRIER";

let carrier: CarrierLabelServer;
let cupsd: TestCupsd;
let device: SocketPrinter;
let t: TestAgent;
let zebra: FakeZebra;
let z: TestAgent;

beforeAll(async () => {
  carrier = await startCarrierLabelServer();
  cupsd = await startCupsd();
  device = await startSocketPrinter();
  await cupsd.addQueue(QUEUE, device.uri);
  t = await startTestAgent({
    printing: {
      mode: "station",
      printer: "cups",
      cupsQueue: QUEUE,
      cupsServer: cupsd.server,
      carrierLabels: {
        allowHosts: ["localhost"],
        allowLoopback: true,
        caFile: carrier.cert.certFile,
        timeoutMs: 5000,
      },
    },
  });
  zebra = await startFakeZebra({ printMs: 50 });
  z = await startTestAgent({
    printing: {
      mode: "station",
      printer: "zpl",
      zpl: { host: zebra.host, port: zebra.port },
      carrierLabels: {
        allowHosts: ["localhost"],
        allowLoopback: true,
        caFile: carrier.cert.certFile,
        timeoutMs: 5000,
      },
    },
  });
  for (const a of [t, z]) {
    await seedItem(a, "PK");
    await setStock(a, "S4", "M3", "PK", 50);
    await ok(a.call("POST", "/station/seats/front/login", { user: "alice" }));
  }
});
afterAll(async () => {
  await t?.close();
  await z?.close();
  await zebra?.close();
  await device?.close();
  await cupsd?.close();
  await carrier?.close();
});

async function tile(match: (b: Tile) => boolean, a: TestAgent = t): Promise<Tile> {
  let found: Tile | undefined;
  const bins = async () =>
    ((await ok(a.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState).bins;
  await until(
    "the bin's tile",
    async () => {
      found = (await bins()).find(match);
      return found !== undefined;
    },
    30_000,
    { everyMs: 100, seen: async () => JSON.stringify(await bins()) },
  );
  return found as Tile;
}

/** A pick+pack order of one unit naming the carrier's label, picked to its bin's completion. */
async function pack(id: string, url: string, a: TestAgent = t): Promise<string> {
  const attrs = {
    shipping_address: "Jane Roe\n1 Main St",
    packing_box_id: `BOX-${id}`,
    carrier_label_url: url,
  };
  await pickPackOne(a, id, attrs);
  return (await tile((b) => b.orders.some((o) => o.id === id), a)).id;
}

describe("the carrier's label through CUPS", () => {
  it("the carrier's PDF reaches the printer byte for byte, once, and the bin is released", async () => {
    const before = device.jobs().length;
    const bin = await pack("CC1", `${carrier.origin}/label.pdf`);
    const done = await tile((b) => b.id === bin && b.printState === "done");
    expect(done.printError).toBeNull();
    await until("the job at the device", () => device.jobs().length > before, 20_000);
    const jobs = device.jobs().slice(before);
    expect(jobs).toHaveLength(1);
    expect((jobs[0] as Buffer).equals(Buffer.from(carrier.pdf))).toBe(true);
    expect((await cupsd.run("lpstat", ["-W", "not-completed", "-o", QUEUE])).trim()).toBe("");
    await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin }));
  });

  it("a carrier's ZPL is refused in words by a PDF queue; the bin is held and nothing printed", async () => {
    const before = device.jobs().length;
    const bin = await pack("CC2", `${carrier.origin}/label.zpl`);
    const failed = await tile((b) => b.id === bin && b.printError !== null);
    expect(failed.printError).toMatch(/^the carrier served ZPL; the printer at this station takes PDF/);
    expect(failed).toMatchObject({ state: "complete", printState: "waiting" });
    expect(device.jobs().length).toBe(before);
  });
});

describe("the carrier's label on a Zebra (TCP 9100)", () => {
  it("the carrier's ZPL goes to the printer unchanged, once, and the bin is released", async () => {
    const before = zebra.printed.length;
    const bin = await pack("CZ1", `${carrier.origin}/label.zpl`, z);
    const done = await tile((b) => b.id === bin && b.printState === "done", z);
    expect(done.printError).toBeNull();
    const printed = zebra.printed.slice(before);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toBe(Buffer.from(carrier.zpl).toString("utf8").trim());
    await ok(z.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin }));
  });

  it("the carrier's PNG is printed as a ZPL graphic of the label's size, once", async () => {
    const before = zebra.printed.length;
    const bin = await pack("CZ2", `${carrier.origin}/label.png`, z);
    const done = await tile((b) => b.id === bin && b.printState === "done", z);
    expect(done.printError).toBeNull();
    const printed = zebra.printed.slice(before);
    expect(printed).toHaveLength(1);
    // 812 dots wide is 102 bytes a row, 1218 rows (docs/decisions.md#carrier-label-conversions)
    expect(printed[0]).toMatch(/\^GFA,124236,124236,102,/);
    await ok(z.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin }));
  });
});
