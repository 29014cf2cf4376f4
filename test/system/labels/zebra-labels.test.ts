/**
 * Pick+pack printed on a Zebra over TCP 9100 by the real agent (docs/station.md#shipping-labels-pickpack):
 * a fake Zebra on loopback answers ~HS as the programming guide lays it out. A printed label releases the
 * bin; paused, out of paper, head open, no answer and a connection lost mid-job each hold the bin with
 * the printer's words on the screen and /readyz, and once the fault is cleared a Reprint gives the box
 * exactly one label (the label given up on was cancelled). The time from the pick to the verdict on the
 * screen is measured and printed, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { type FakeZebra, startFakeZebra, type ZebraFaults } from "../../support/fake-zebra.js";
import { ok, pickPackOne, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
let zebra: FakeZebra;
const verdicts: Record<string, number> = {};
const CLEAR: ZebraFaults = { paused: false, paperOut: false, headOpen: false, silent: false };

beforeAll(async () => {
  zebra = await startFakeZebra({ printMs: 200 });
  t = await startTestAgent({
    ppsId: "7",
    printing: { mode: "station", printer: "zpl", zpl: { host: zebra.host, port: zebra.port } },
  });
  await seedItem(t, "PK");
  await setStock(t, "S4", "M3", "PK", 50);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
  await until("the printer's state on /readyz", async () => (await readyDetail()).startsWith("ok ("));
});
afterAll(async () => {
  await t?.close();
  await zebra?.close();
  console.info(
    `zebra verdict times (ms, pick to the bin's failure on the screen): ${JSON.stringify(verdicts)}`,
  );
});

async function screen(): Promise<ScreenState> {
  return (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
}

async function readyDetail(): Promise<string> {
  const body = (await (await t.request("/readyz")).json()) as {
    ready: boolean;
    checks: Record<string, { ok: boolean; detail?: string }>;
  };
  expect(body.checks.label_printer?.ok).toBe(true);
  return body.checks.label_printer?.detail ?? "";
}

/** Orders one unit in a pick+pack order and picks it: its bin completes and its label is printed. */
async function pickPack(id: string): Promise<number> {
  return pickPackOne(t, id, {
    shipping_address: `Jane Roe\n${id} Main St\n10115 Berlin`,
    packing_box_id: `BOX-${id}`,
  });
}

async function binOf(id: string): Promise<ScreenState["bins"][number]> {
  let bin: ScreenState["bins"][number] | undefined;
  await until(`the bin of ${id}`, async () => {
    const s = await screen();
    bin = s.bins.find((b) => b.orders.some((o) => o.id === id));
    return bin !== undefined;
  });
  return bin as ScreenState["bins"][number];
}

async function released(binId: string): Promise<void> {
  await until(`bin ${binId} released`, async () => {
    const b = (await screen()).bins.find((x) => x.id === binId);
    return b?.printState === "done" && b.printError === null;
  });
  await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: binId }));
}

describe("pick+pack labels on a Zebra (TCP 9100)", () => {
  it("the label is printed as ZPL and the bin is released", async () => {
    const before = zebra.printed.length;
    await pickPack("PZ0");
    const bin = await binOf("PZ0");
    await released(bin.id);
    expect(zebra.printed).toHaveLength(before + 1);
    const label = zebra.printed.at(-1) ?? "";
    expect(label).toContain("^CI28");
    expect(label).toContain("^FD>:BOX-PZ0^FS");
    expect(label).toContain("^FDPZ0 Main St^FS");
  });

  const faults: Array<[string, Partial<ZebraFaults> | "drop", RegExp, string | null]> = [
    ["paused", { paused: true }, /^the printer is paused$/, "paused"],
    ["paper out", { paperOut: true }, /^the printer is out of paper$/, "paper_out"],
    ["head open", { headOpen: true }, /^the printer's head is open$/, "head_open"],
    ["no answer", { silent: true }, /^the printer does not answer at 127\.0\.0\.1:\d+$/, "no_answer"],
    [
      "disconnect mid-job",
      "drop",
      /^the connection to the printer at 127\.0\.0\.1:\d+ was lost during the job$/,
      null,
    ],
  ];

  it.each(faults)(
    "%s: the bin is held with the printer's words; cleared + Reprint prints exactly one label",
    async (name, fault, words, cause) => {
      const id = `PZ${Object.keys(verdicts).length + 1}`;
      const before = zebra.printed.length;
      if (fault === "drop") zebra.dropNextFormat();
      else zebra.set(fault);
      const started = await pickPack(id);
      const bin = await binOf(id);
      await until(`${name}: the label's failure on the screen`, async () => {
        const b = (await screen()).bins.find((x) => x.id === bin.id);
        return b?.printError !== null && b?.printError !== undefined;
      });
      verdicts[name] = Math.round(performance.now() - started);

      const held = (await screen()).bins.find((x) => x.id === bin.id);
      expect(held).toMatchObject({ state: "complete", printState: "waiting", actions: ["reprint"] });
      expect(held?.printError).toMatch(words);
      if (cause !== null) {
        // the printer's own state: a notice with what to do, and /readyz names it (still ready)
        await until(`${name}: the printer's state on the screen`, async () =>
          (await screen()).notices.some(
            (n) => n.kind === "printer_state" && n.text.key === `notice.printer_state_${cause}`,
          ),
        );
        expect(await readyDetail()).toMatch(/^degraded: the printer('s| is| does not answer)/);
      }

      // a label that reached the printer was cancelled (~JA) while the fault held: nothing waits in its buffer
      await until(`${name}: nothing in the printer's buffer`, () => zebra.buffered() === 0);
      zebra.set(CLEAR);
      await until(`${name}: the printer ok again`, async () => (await readyDetail()).startsWith("ok ("));
      expect((await screen()).notices.filter((n) => n.kind === "printer_state")).toEqual([]);
      // nothing the agent gave up on prints by itself once the fault is cleared
      await until(`${name}: the printer's buffer empty`, () => zebra.buffered() === 0);
      expect(zebra.printed).toHaveLength(before);

      const out = await ok(
        t.call("POST", "/station/seats/front/screen/actions", { type: "reprint", bin: bin.id }),
      );
      expect(out).toMatchObject({ result: "done", did: "reprinted" });
      await released(bin.id);
      await until(`${name}: the printer's buffer empty`, () => zebra.buffered() === 0);
      expect(zebra.printed).toHaveLength(before + 1);
      expect(zebra.printed.at(-1)).toContain(`^FD>:BOX-${id}^FS`);
    },
  );
});
