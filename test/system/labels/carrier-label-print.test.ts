/**
 * The carrier's label through the real agent (printing.mode station, the file printer): a pick+pack
 * order with `carrier_label_url` gets the carrier's label printed in place of the agent's own, from a
 * carrier server on loopback; each way the fetch fails is a printer failure on the bin's tile, the bin
 * held, and a Reprint once the carrier's server is fixed prints the label once and releases the bin.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import {
  answers,
  type CarrierLabelServer,
  startCarrierLabelServer,
} from "../../support/carrier-label-server.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, pickPackOne, SR, seedItem, setStock } from "../../support/station.js";

type Tile = ScreenState["bins"][number];

let s: CarrierLabelServer;
let t: TestAgent;
let slip: TestAgent;
const labels = tempDir("pps-edge-carrier-labels-");
const slipLabels = tempDir("pps-edge-carrier-slips-");

const carrierLabels = (over: Record<string, unknown> = {}) => ({
  allowHosts: ["localhost"],
  allowLoopback: true,
  // long enough for a loaded machine; the slow carrier below answers far later
  timeoutMs: 3000,
  maxBytes: 256 * 1024,
  ...over,
});

beforeAll(async () => {
  s = await startCarrierLabelServer();
  const printing = (dir: string, over: Record<string, unknown> = {}) => ({
    printing: {
      mode: "station",
      printer: "file",
      dir,
      carrierLabels: carrierLabels({ caFile: s.cert.certFile, ...over }),
    },
  });
  t = await startTestAgent(printing(labels));
  slip = await startTestAgent(printing(slipLabels, { packingSlip: true }));
  for (const a of [t, slip]) {
    await seedItem(a, "PK");
    await setStock(a, "S4", "M3", "PK", 100);
    await ok(a.call("POST", "/station/seats/front/login", { user: "alice" }));
  }
});
afterAll(async () => {
  await t?.close();
  await slip?.close();
  await s?.close();
});

async function tile(a: TestAgent, until: (b: Tile) => boolean): Promise<Tile> {
  let found: Tile | undefined;
  await expect
    .poll(
      async () => {
        const state = (await ok(a.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
        found = state.bins.find(until);
        return found !== undefined;
      },
      { timeout: deadline(15_000) },
    )
    .toBe(true);
  return found as Tile;
}

/** A pick+pack order of one unit with this carrier label URL, picked to its bin's completion. */
async function pack(a: TestAgent, id: string, url: string): Promise<void> {
  await pickPackOne(a, id, {
    shipping_address: "Jane Roe\n1 Main St",
    packing_box_id: `BOX-${id}`,
    carrier_label_url: url,
  });
}

/** The bin of an order whose label printed: released (done), then emptied for the next order. */
async function released(a: TestAgent): Promise<void> {
  const bin = await tile(a, (b) => b.state === "complete" && b.printState === "done");
  expect(bin.printError).toBeNull();
  await ok(a.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: bin.id }));
}

describe("the carrier's label printed in place of the agent's own", () => {
  it("prints a carrier's PDF and ZPL byte for byte, and its PNG as a PDF page holding the image", async () => {
    await pack(t, "CL1", `${s.origin}/label.pdf?token=abc`);
    await released(t);
    expect(readFileSync(join(labels, "BOX-CL1-CL1.pdf")).equals(Buffer.from(s.pdf))).toBe(true);

    await pack(t, "CL2", `${s.origin}/label.zpl`);
    await released(t);
    expect(readFileSync(join(labels, "BOX-CL2-CL2.zpl")).equals(Buffer.from(s.zpl))).toBe(true);

    await pack(t, "CL3", `${s.origin}/label.png`);
    await released(t);
    const pdf = await PDFDocument.load(readFileSync(join(labels, "BOX-CL3-CL3.pdf")));
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    const raw = Buffer.from(await pdf.save({ useObjectStreams: false })).toString("latin1");
    expect(raw).toMatch(/\/Subtype \/Image/);
    expect(raw).toMatch(/\/Width 812/);
    expect(raw).toMatch(/\/Height 1218/);
    // the carrier's label only: no label of the agent's own beside it
    expect(readdirSync(labels).sort()).toEqual(["BOX-CL1-CL1.pdf", "BOX-CL2-CL2.zpl", "BOX-CL3-CL3.pdf"]);
  });

  const failures: Array<[string, string, (port: number) => void, string | RegExp]> = [
    [
      "slow",
      "/f-slow.pdf",
      () => s.serve("/f-slow.pdf", answers.slow(60_000, answers.send("application/pdf", s.pdf))),
      "no label within 3000 ms (printing.carrierLabels.timeoutMs)",
    ],
    [
      "HTML served as PNG",
      "/f-html.png",
      () => s.serve("/f-html.png", answers.send("image/png", "<html><body>Please log in</body></html>")),
      "the carrier served image/png that is HTML, not a PNG",
    ],
    [
      "a PDF labelled text/html",
      "/f-pdf-as-html",
      () => s.serve("/f-pdf-as-html", answers.send("text/html", s.pdf)),
      "the carrier served text/html, not a label",
    ],
    [
      "too big",
      "/f-big.pdf",
      () => s.serve("/f-big.pdf", answers.stream(4 * 1024 * 1024)),
      "it is larger than 262144 bytes (printing.carrierLabels.maxBytes)",
    ],
    ["404", "/f-missing.pdf", () => {}, /^localhost:\d+ answered 404 Not Found$/],
    [
      "a redirect to a host not allowed",
      "/f-away",
      () => s.serve("/f-away", answers.redirect(`${s.originByAddress}/label.pdf`)),
      "redirected, and 127.0.0.1 is not an allowed carrier label host (printing.carrierLabels.allowHosts)",
    ],
  ];

  it.each(failures)(
    "a carrier label that is %s: the bin held with why, then Reprint prints it once",
    async (what, path, arrange, why) => {
      arrange(s.port);
      // short: the box id is the OLPN, which a label carries up to 16 characters (docs/limits.md#shipping-labels)
      const id = `CF${failures.findIndex((f) => f[1] === path)}`;
      await pack(t, id, `${s.origin}${path}`);
      const failed = await tile(t, (b) => b.printError !== null);
      expect(failed).toMatchObject({ state: "complete", printState: "waiting", actions: ["reprint"] });
      const prefix = "the carrier's label could not be fetched: ";
      expect(failed.printError?.startsWith(prefix), String(failed.printError)).toBe(true);
      const cause = (failed.printError as string).slice(prefix.length);
      if (typeof why === "string") expect(cause).toBe(why);
      else expect(cause).toMatch(why);
      const state = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
      // the screen says it was the carrier's label, not the printer (a 404's "Not Found" is no missing printer)
      expect(state.notices).toContainEqual({
        kind: "printer_failed",
        text: { key: "notice.printer_carrier", params: { bin: failed.id } },
        bins: [failed.id],
        actions: ["reprint", "skip", "supervisor"],
      });
      expect(existsSync(join(labels, `BOX-${id}-${id}.pdf`)), `${what}: nothing printed`).toBe(false);

      // the carrier's server fixed: this path now serves the label
      s.serve(path, answers.send("application/pdf", s.pdf));
      const before = s.requests.filter((p) => p === path).length;
      const out = await ok(
        t.call("POST", "/station/seats/front/screen/actions", { type: "reprint", bin: failed.id }),
      );
      expect(out).toMatchObject({ result: "done", did: "reprinted" });
      await released(t);
      expect(s.requests.filter((p) => p === path).length - before).toBe(1);
      expect(readFileSync(join(labels, `BOX-${id}-${id}.pdf`)).equals(Buffer.from(s.pdf))).toBe(true);
    },
  );

  it("refuses a carrier label URL whose host is not on the list, without asking it", async () => {
    const before = s.requests.length;
    await pack(t, "CF-host", `${s.originByAddress}/label.pdf`);
    const failed = await tile(t, (b) => b.printError !== null);
    expect(failed.printError).toBe(
      "the carrier's label could not be fetched: 127.0.0.1 is not an allowed carrier label host (printing.carrierLabels.allowHosts)",
    );
    expect(s.requests.length).toBe(before);
    await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "skip_label", bin: failed.id }));
    await released(t);
  });

  it("a box closed as full gets the agent's own label; the order's last box the carrier's", async () => {
    const tap = async (action: Record<string, unknown>) => {
      t.clock.now += 1000;
      return ok(t.call("POST", "/station/seats/front/screen/actions", action));
    };
    const attrs = {
      shipping_address: "Jane Roe",
      packing_box_id: "BOX-CB1",
      carrier_label_url: `${s.origin}/label.pdf`,
    };
    await ok(t.call("POST", SR, pickBody("CB1", [pickLine("CB1-1", "PK", 3, attrs)])));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    const asked = s.requests.length;
    await tap({ type: "scan", barcode: "BC-PK" });
    await tap({ type: "keyin", quantity: 2 });
    await tap({ type: "scan", barcode: "BC-PK" });
    const closed = await tap({ type: "exception", code: "BOX_FULL" });
    expect(closed).toMatchObject({ did: "bin_closed_full", params: { order: "CB1" } });
    const box = await tile(t, (b) => b.state === "complete" && b.printState === "done");
    const own = await PDFDocument.load(readFileSync(join(labels, "BOX-CB1-1-CB1.pdf")));
    expect(own.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(s.requests.length).toBe(asked);
    await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: box.id }));

    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "CB1",
        line: "CB1-1",
        location: "S4",
        quantity: 1,
      }),
    );
    await released(t);
    expect(readFileSync(join(labels, "BOX-CB1-CB1.pdf")).equals(Buffer.from(s.pdf))).toBe(true);
    expect(s.requests.slice(asked)).toEqual(["/label.pdf"]);
  });

  it("a CA file that cannot be read stops the start, naming the key", async () => {
    const missing = join(tempDir("pps-edge-no-ca-"), "carrier-ca.pem");
    const start = startTestAgent({
      printing: {
        mode: "station",
        printer: "file",
        dir: labels,
        carrierLabels: carrierLabels({ caFile: missing }),
      },
    });
    await expect(start).rejects.toMatchObject({
      name: "StartError",
      key: "printing.carrierLabels.caFile",
      problem: `cannot read ${missing} (ENOENT)`,
    });
  });

  it("with packingSlip, prints the agent's own label after the carrier's", async () => {
    await pack(slip, "CS1", `${s.origin}/label.zpl`);
    await released(slip);
    expect(readdirSync(slipLabels).sort()).toEqual(["BOX-CS1-CS1-slip.pdf", "BOX-CS1-CS1.zpl"]);
    expect(readFileSync(join(slipLabels, "BOX-CS1-CS1.zpl")).equals(Buffer.from(s.zpl))).toBe(true);
    const own = await PDFDocument.load(readFileSync(join(slipLabels, "BOX-CS1-CS1-slip.pdf")));
    expect(own.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
  });
});
