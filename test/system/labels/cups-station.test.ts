/**
 * Pick+pack printing through a real cupsd (test/support/cupsd.ts) to a label printer on a loopback
 * socket, seen as the operator sees it: for each cause the bin's tile says why within the 15 s of
 * docs/hardware.md#cups-verdicts and the bin stays held; once the cause is fixed, Reprint prints and
 * releases the bin, and the device has received exactly one label for the box.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUPS_LIMITS } from "../../../src/devices/drivers/label-printer/cups-verdict.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { type SocketPrinter, startCupsd, startSocketPrinter, type TestCupsd } from "../../support/cupsd.js";
import { deadline, until } from "../../support/deadline.js";
import { LogLines } from "../../support/log-lines.js";
import { ok, pickPackOne, seedItem, setStock } from "../../support/station.js";

const QUEUE = "LABELS";
/** The verdict the agent promises (docs/hardware.md#cups-verdicts). */
const VERDICT_MS = 15_000;

let t: TestAgent;
let cupsd: TestCupsd;
let device: SocketPrinter;
const log = new LogLines();
let orders = 0;

beforeAll(async () => {
  cupsd = await startCupsd();
  device = await startSocketPrinter();
  await cupsd.addQueue(QUEUE, device.uri);
  t = await startTestAgent(
    {
      printing: { mode: "station", printer: "cups", cupsQueue: QUEUE, cupsServer: cupsd.server },
      log: { level: "info" },
    },
    { logTo: log },
  );
  await seedItem(t, "PK");
  await setStock(t, "S4", "M3", "PK", 50);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
  // the first label loads pdf-lib and bwip-js: one order printed before the cases are timed
  const first = await packOrder();
  await tile((b) => b.id === first.bin && b.printState === "done");
  await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: first.bin }));
});
afterAll(async () => {
  await t?.close();
  await device?.close();
  await cupsd?.close();
});

async function screen(): Promise<ScreenState> {
  return (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
}

async function tile(match: (b: ScreenState["bins"][number]) => boolean, ms = 20_000) {
  let found: ScreenState["bins"][number] | undefined;
  await until(
    "the bin's tile",
    async () => {
      found = (await screen()).bins.find(match);
      return found !== undefined;
    },
    ms,
    { everyMs: 100, seen: async () => JSON.stringify((await screen()).bins) },
  );
  return found as ScreenState["bins"][number];
}

/** A pick+pack order picked to its end: its bin completes and the agent sends the label. */
async function packOrder(): Promise<{ id: string; bin: string; at: number }> {
  const id = `PL${++orders}`;
  const at = await pickPackOne(t, id, {
    shipping_address: "Jane Roe\n1 Main St",
    packing_box_id: `BOX-${orders}`,
    order_number: `O-${orders}`,
  });
  const bin = (await tile((b) => b.orders.some((o) => o.id === id))).id;
  return { id, bin, at };
}

/**
 * The case: the order's label fails with `words` on its tile within the verdict time, the bin held;
 * (`during` runs while the job is out) `fix` fixes the cause; Reprint prints; the device has one label more than before.
 */
async function failsThenReprints(
  words: RegExp,
  fix: () => Promise<void>,
  during?: () => Promise<void>,
): Promise<number> {
  const before = device.labels();
  const order = await packOrder();
  await during?.();
  const failed = await tile((b) => b.id === order.bin && b.printError !== null);
  const ms = performance.now() - order.at;
  console.info(`verdict on the screen after ${ms} ms: ${failed.printError}`);
  expect(failed.printError).toMatch(words);
  expect(ms).toBeLessThan(VERDICT_MS + deadline(2000));
  expect(failed).toMatchObject({ state: "complete", printState: "waiting", actions: ["reprint"] });
  await fix();
  const out = await ok(
    t.call("POST", "/station/seats/front/screen/actions", { type: "reprint", bin: order.bin }),
  );
  expect(out).toMatchObject({ result: "done" });
  const printed = await tile((b) => b.id === order.bin && b.printState === "done");
  expect(printed.printError).toBeNull();
  await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: order.bin }));
  // no job is left in CUPS that could print the box's label a second time
  expect((await cupsd.run("lpstat", ["-W", "not-completed", "-o", QUEUE])).trim()).toBe("");
  expect(device.labels() - before).toBe(1);
  return ms;
}

describe("CUPS printing seen at the station", () => {
  it("a paused queue", async () => {
    await cupsd.run("cupsdisable", [QUEUE]);
    await failsThenReprints(/^the print queue LABELS is paused$/, () =>
      cupsd.run("cupsenable", [QUEUE]).then(() => {}),
    );
  });

  it("a printer disabled with a reason", async () => {
    await cupsd.run("cupsdisable", ["-r", "out of labels", QUEUE]);
    await failsThenReprints(/^the print queue LABELS is paused \(out of labels\)$/, () =>
      cupsd.run("cupsenable", [QUEUE]).then(() => {}),
    );
  });

  it("a queue not accepting jobs", async () => {
    await cupsd.run("cupsreject", [QUEUE]);
    await failsThenReprints(/^the print queue LABELS is not accepting jobs/, () =>
      cupsd.run("cupsaccept", [QUEUE]).then(() => {}),
    );
  });

  it("an unreachable printer, logged while waiting", async () => {
    await device.unplug();
    await failsThenReprints(/^the printer LABELS cannot be reached \(.*unavailable.*\)$/, () =>
      device.plug(),
    );
    const waiting = log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "label print job waiting");
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]).toMatchObject({ queue: QUEUE, state: "printing" });
    expect(waiting[0].jobId).toMatch(/^LABELS-\d+$/);
    expect(waiting[0].reason).toMatch(/unavailable/);
  });

  it("two bins at an unreachable printer: the second bin's verdict does not wait for the first's; one label each", async () => {
    const before = device.labels();
    await device.unplug();
    const a = await packOrder();
    const b = await packOrder();
    const words = /^the printer LABELS cannot be reached/;
    const failed = async (bin: string) => {
      const found = await tile((x) => x.id === bin && x.printError !== null);
      return { error: found.printError, at: performance.now() };
    };
    const [failedA, failedB] = await Promise.all([failed(a.bin), failed(b.bin)]);
    const msB = failedB.at - b.at;
    console.info(`second bin's verdict on the screen after ${msB} ms: ${failedB.error}`);
    expect([failedA.error, failedB.error]).toEqual([
      expect.stringMatching(words),
      expect.stringMatching(words),
    ]);
    expect(msB).toBeLessThan(VERDICT_MS + deadline(2000));
    // one chain per bin: bin b's job went to CUPS at once, so its verdict follows a's closely; one chain
    // for all would have sent it only after a's verdict, and it would have waited its own 8 s from there
    expect(failedB.at - failedA.at).toBeLessThan(CUPS_LIMITS.unreachableMs);
    await device.plug();
    for (const order of [a, b]) {
      await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "reprint", bin: order.bin }));
      await tile((x) => x.id === order.bin && x.printState === "done");
      await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: order.bin }));
    }
    expect((await cupsd.run("lpstat", ["-W", "not-completed", "-o", QUEUE])).trim()).toBe("");
    expect(device.labels() - before).toBe(2);
  });

  it("cupsd stopped: said as not running", async () => {
    await cupsd.stop();
    await failsThenReprints(/^the print server \(cupsd\) is not running$/, () => cupsd.start());
  });

  it("cupsd killed mid-job: said as not running; back, the reprint leaves one label", async () => {
    await device.unplug();
    await failsThenReprints(
      /^the print server \(cupsd\) is not running$/,
      async () => {
        await cupsd.start();
        await device.plug();
      },
      async () => {
        await until(
          "the job stuck at the unplugged printer",
          async () => (await cupsd.run("lpstat", ["-W", "not-completed", "-o", QUEUE])).trim() !== "",
          10_000,
          { everyMs: 100 },
        );
        await cupsd.stop("SIGKILL");
      },
    );
  });
});
