/**
 * The station's states and the operator's texts in a real browser (docs/station.md#operator-screen
 * "Notices"): a rack of three lines counted line 1, 2, 3 of 3 on one face size; "Too few" asking how many
 * are missing with nothing keyed in; the last event in words; then a put staged in pick mode, central not
 * reachable (the broker address is a closed port) and the outbox near its bound, as notices in words,
 * at 1024×768 and 1920×1080 with axe-core reporting nothing serious. Screenshots in test-results/.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { deadline } from "../../support/deadline.js";
import { CORE, ok, pickBody, pickLine, putBody, SR, seedItem, setStock } from "../../support/station.js";
import { FAST, notify } from "../../support/sync/agent.js";
import { freePort } from "../../support/sync/brokers.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;
const LIMIT = 100;

const button = (name: string) => page.getByRole("button", { name, exact: true });
const last = () => page.getByRole("region", { name: "Last" });
async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}
const state = async () =>
  (await ok(rig.t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;

/** 1024×768 and 1920×1080: the layout holds and axe-core finds nothing serious. */
async function atBothSizes(where: string, shot: string) {
  try {
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      await expectLayout(page, `${where} at ${size.width}`);
      await expectAccessible(page, `${where} at ${size.width}`);
      await rig.shot(page, `${shot}-${size.width}`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

beforeAll(async () => {
  // central's broker is a port nobody listens on: the link never comes up
  const closed = await freePort();
  rig = await startScreenRig("station-states", {
    mqtt: { url: `mqtt://127.0.0.1:${closed}`, ...FAST },
    outbox: { maxUndelivered: LIMIT },
  });
  page = await rig.open("front");
  for (const sku of ["A", "B", "C"]) await seedItem(rig.t, sku);
  await setStock(rig.t, "M1-A1", "M1", "A", 10);
  await setStock(rig.t, "M1-B3", "M1", "B", 10);
  await setStock(rig.t, "M1-C2", "M1", "C", 10);
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: the station's states in words", { timeout: deadline(90_000) }, () => {
  it("a rack of three lines: line 1, 2, 3 of 3; too few asks how many are missing; the last event in words", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await ok(
      rig.t.call(
        "POST",
        SR,
        pickBody("P3", [pickLine("P3-1", "A", 1), pickLine("P3-2", "B", 1), pickLine("P3-3", "C", 1)]),
      ),
    );
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1", "M1-B3", "M1-C2"] }));
    const cells: number[] = [];
    for (let n = 1; n <= 3; n++) {
      await text(page.locator(".card-line"), `Line ${n} of 3`);
      cells.push(await page.locator(".face .cell").count());
      if (n === 2) {
        await button("Problem").click();
        await page.getByRole("dialog", { name: "What is the problem?" }).waitFor();
        await button("Too few in the slot").click();
        await text(page.locator("#numpad-title"), "Too few in the slot: How many are missing?");
        expect(await page.locator("#numpad-value").innerText()).toBe("");
        await atBothSizes("too few, nothing keyed in", "too-few");
        await button("Close").click();
      }
      const sku = (await state()).card?.row?.sku;
      await rig.scan(`BC-${sku}`);
      await text(page.locator(".card-line"), `Line ${n} of 3`);
      await button("Confirm").click();
      await text(last(), /Button of bin \d+\s+Picked/);
    }
    // one grid for the rack: rows A–C × columns 1–3 on every line
    expect(cells).toEqual([9, 9, 9]);
    await rig.scan("EXC-CONFIRM");
    await text(last(), /Confirm\s+Nothing to confirm now/);
    expect(await last().innerText()).not.toMatch(/EXC-/);
  });

  it("a put staged in pick mode, central not reachable, the outbox near full: each a notice in words", async () => {
    await ok(rig.t.call("POST", SR, putBody("TOTE-7", [["A", 3]], "TOTE-7")));
    const stage = await rig.t.call("POST", `${CORE}/stage_put_expectation`, {
      serviceRequestId: "TOTE-7",
      ppsId: "1",
      ppsBinId: "2",
    });
    expect(stage.status).toBe(200);
    await text(
      page.locator('[data-kind="stage_failed"]'),
      /Tote TOTE-7 could not be staged into bin 2: the station is in pick mode\. Ask a supervisor to switch to Put/,
    );
    await text(
      page.locator('[data-kind="central_unreachable"]'),
      /Central is not reachable: keep working, the station keeps every change/,
    );
    const waiting = rig.t.agent.services.unitOfWork.undelivered();
    for (let i = waiting + 1; i <= 0.85 * LIMIT; i++)
      notify(rig.t, "order_information", { externalServiceRequestId: `W-${i}`, state: "fulfillable" });
    await text(
      page.locator('[data-kind="outbox_near_full"]'),
      /Central has not received 85 changes: after 15 more the station refuses work\. Call a supervisor/,
    );
    expect(
      await page
        .locator('[data-kind="stage_failed"]')
        .getByRole("button", { name: "Call a supervisor" })
        .count(),
    ).toBe(1);
    await atBothSizes("the station's notices", "notices");
    await page
      .locator('[data-kind="stage_failed"]')
      .getByRole("button", { name: "Call a supervisor" })
      .click();
    await text(last(), /Call a supervisor\s+A supervisor was called/);
  });

  it("every other new notice at once, as the agent words them, in English and German", async () => {
    const s = await state();
    const notices = [
      {
        kind: "work_dropped",
        text: { key: "notice.dropped_pick_expired", params: { order: "P-LATE", sku: "A", slot: "M1-A1" } },
      },
      {
        kind: "bin_released",
        text: { key: "notice.bin_released", params: { bin: "1", orders: "P-LATE" } },
        bins: ["1"],
      },
      { kind: "printer_down", text: { key: "notice.printer_down" }, actions: ["supervisor"] },
      {
        kind: "inputs_down",
        text: { key: "notice.inputs_down", params: { bins: "3, 4" } },
        bins: ["3", "4"],
      },
      {
        kind: "outbox_full",
        text: { key: "notice.outbox_full", params: { undelivered: LIMIT } },
        actions: ["supervisor"],
      },
      { kind: "central_unreachable", text: { key: "notice.central_unreachable" } },
    ];
    try {
      for (const lang of ["en", "de"] as const) {
        // the page's own renderer, given the state with these notices (the agent pushes the same shape)
        await page.evaluate(`(async (st) => {
          const r = await import("/screen/assets/render.js");
          const dom = await import("/screen/assets/dom.js");
          dom.useCatalogue(await (await fetch("/screen/assets/messages/" + st.lang)).json());
          const act = async () => true;
          r.render(st, { lang: st.lang, langs: {}, act, openNumpad: () => {}, openProblems: () => {} });
        })(${JSON.stringify({ ...s, lang, alert: null, notices })})`);
        await text(
          page.locator('[data-kind="work_dropped"]'),
          lang === "en" ? /Order P-LATE passed its deadline/ : /Auftrag P-LATE hat seine Frist/,
        );
        await atBothSizes(`every new notice (${lang})`, `all-notices-${lang}`);
      }
    } finally {
      await page.evaluate(`(async () => (await import("/screen/assets/dom.js")).useCatalogue(
        await (await fetch("/screen/assets/messages/en")).json()))()`);
    }
  });
});
