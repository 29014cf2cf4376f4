/**
 * The operator screen for a person at arm's length: at 1024×768, 1280×800, 1366×768 and 1920×1080, with
 * 1, 16 and 40 lines on the rack, before and after the scan, the document never scrolls, every control
 * shown lies in the window, is at least 48×48 px and keeps 8 px from the others, the current line stays in
 * view in its list, and the quantity reads from 1.5 m (≥ 64 px at 1920×1080). The numpad fits and refuses
 * an impossible quantity as it is keyed. The German screen holds the same. axe-core finds no serious or
 * critical violation in any state visited.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Card } from "../../../src/station/screen/state/types.js";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { atEverySize, expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, seedRackLines, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });
const card = () => page.getByRole("group", { name: /^(Now|Jetzt)$/ });
async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}
const lineCount = () =>
  page
    .getByRole("table", { name: /^(Task|Aufgabe)$/ })
    .locator("tbody tr")
    .count();

beforeAll(async () => {
  rig = await startScreenRig("layout");
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: layout at every panel size", { timeout: deadline(120_000) }, () => {
  it("1, 16 and 40 lines on the rack, before and after the scan, at the four sizes", async () => {
    await text(heading(), "Log in: scan your badge");
    await expectAccessible(page, "the login");
    await atEverySize(page, async () => {
      await expectLayout(page, "the login");
    });
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(heading(), "No work");
    await expectAccessible(page, "no work");
    await atEverySize(page, async () => {
      await expectLayout(page, "no work");
    });
    // 1 line, then 15 more, then 24 more: 1, 16 and 40 lines on rack M1
    const orders = [
      { order: "RACK-A", from: 1, count: 1, total: 1 },
      { order: "RACK-B", from: 2, count: 15, total: 16 },
      { order: "RACK-C", from: 17, count: 24, total: 40 },
    ];
    const locations = Array.from({ length: 40 }, (_, i) => `S${String(i + 1).padStart(2, "0")}`);
    for (const o of orders) {
      const skus = await seedRackLines(rig.t, o);
      await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations }));
      await expect.poll(lineCount, { timeout: deadline(5000) }).toBe(o.total);
      await text(heading(), /^Scan an item from slot S\d\d$/);
      await text(card(), /Take from slot S\d\d/);
      await text(card(), new RegExp(`Line \\d+ of ${o.total}`));
      await expectAccessible(page, `${o.total} lines, before the scan`);
      await atEverySize(page, async (size) => {
        await expectLayout(page, `${o.total} lines, before the scan`);
        if (size.width === 1366) await rig.shot(page, `lines-${o.total}-take-1366`);
      });

      // the scan: the card says where to put it, in the colour of the bin's light
      const slot = (await heading().innerText()).replace(/^.* /, "");
      const sku = `L${slot.slice(1)}`;
      expect(skus.length + o.from - 1).toBe(o.total);
      await rig.scan(`BC-${sku}`);
      await text(heading(), new RegExp(`^Put \\d × ${sku} into bin \\d`));
      await text(card(), /Put into bin \d/);
      await expect.poll(() => card().locator(".card-bin").getAttribute("data-color")).toBe("green");
      await expectAccessible(page, `${o.total} lines, after the scan`);
      await atEverySize(page, async (size) => {
        await expectLayout(page, `${o.total} lines, after the scan`);
        if (size.width === 1920) await rig.shot(page, `lines-${o.total}-put-1920`);
      });
      await button("Cancel").click();
      await text(heading(), /^Scan an item from slot S\d\d$/);
    }
    // a line far down the list is scanned: its row scrolls into view inside the list, the page does not
    await rig.scan("BC-L35");
    await text(heading(), /^Put \d × L35 into bin \d/);
    await text(card(), /Line 35 of 40/);
    await atEverySize(page, async (size) => {
      const g = await expectLayout(page, "line 35 of 40 lit");
      expect(g.litInView).toBe(true);
      if (size.width === 1024) await rig.shot(page, "line-35-lit-1024");
    });
    await button("Cancel").click();
    await text(heading(), /^Scan an item from slot S\d\d$/);
  });

  it("the numpad fits at every size, shows what is counted and refuses an impossible quantity as keyed", async () => {
    const slot = (await heading().innerText()).replace(/^.* /, "");
    await rig.scan(`BC-L${slot.slice(1)}`);
    await text(heading(), /^Put \d × L\d\d into bin/);
    await button("Key in quantity").click();
    const pad = page.getByRole("dialog", { name: "Key in quantity" });
    await pad.waitFor();
    // nothing keyed: OK is off, and a leading 0 cannot be keyed
    expect(await pad.getByRole("button", { name: "OK" }).isDisabled()).toBe(true);
    expect(await pad.getByRole("button", { name: "0", exact: true }).isDisabled()).toBe(true);
    await expectAccessible(page, "the numpad");
    await atEverySize(page, async (size) => {
      await expectLayout(page, "the numpad");
      if (size.width === 1024) await rig.shot(page, "numpad-1024");
    });
    await pad.getByRole("button", { name: "1", exact: true }).click();
    expect(await pad.getByRole("button", { name: "OK" }).isEnabled()).toBe(true);
    await pad.getByRole("button", { name: "Clear" }).click();
    expect(await pad.getByRole("button", { name: "OK" }).isDisabled()).toBe(true);
    await pad.getByRole("button", { name: "Close" }).click();
    await pad.waitFor({ state: "hidden" });
    await button("Cancel").click();
    await text(heading(), /^Scan an item from slot S\d\d$/);
  });

  it("every new state member drawn at once (a state the page is given directly) fits and is accessible", async () => {
    await text(heading(), /^Scan an item from slot S\d\d$/);
    const slot = (await heading().innerText()).replace(/^.* /, "");
    await rig.scan(`BC-L${slot.slice(1)}`);
    await text(heading(), /^Put \d × L\d\d into bin/);
    const real = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    const m = (key: string, params: Record<string, string | number> = {}) => ({ key, params });
    const state = {
      ...real,
      version: 7,
      alert: {
        kind: "refused",
        reason: m("refusal.unknown_barcode"),
        code: "4006381333931",
        item: "T-shirt, blue, size M",
        instead: m("instruction.scan_item_from_slot", { slot }),
        until: Date.now() + 60_000,
      },
      bins: real.bins.map((b: Record<string, unknown>, i: number) => ({
        ...b,
        signal: i === 1 ? "error" : null,
        outcome: i === 2 ? "short" : i === 3 ? "complete" : null,
      })),
      card: {
        phase: "put",
        row: { ...real.card.row, sku: "L01", description: "Line item 01, cotton, long sleeve, size XL" },
        slot,
        face: { rows: 5, cols: 8, row: 2, col: 3 },
        quantity: 12,
        line: 1,
        lines: 40,
        bin: "1",
        binColor: "green",
      } satisfies Card,
      problems: ["missing", "damaged", "short", "extra", "wrong_slot"].map((kind) => ({
        kind,
        label: m(
          `exception.${kind === "missing" ? "ITEM_MISSING" : kind === "damaged" ? "PHYSICALLY_DAMAGED" : "EXCESS"}`,
        ),
        max: 3,
        default: 2,
        destination: m("ui.bin", { bin: "7" }),
      })),
      notices: [
        { kind: "scanner_down", text: m("ui.device_down", { device: "scanner" }) },
        { kind: "lights_down", text: m("ui.device_down", { device: "ptl-2" }), bins: ["7", "8"] },
        {
          kind: "printer_failed",
          text: m("ui.device_down", { device: "printer" }),
          bins: ["4"],
          actions: ["reprint", "skip", "supervisor"],
        },
      ],
      manualEntry: true,
      keyin: { item: "L01", expected: 12, max: 15 },
      sound: null,
      // a seat that runs a whole shift (docs/station.md#supervisor-at-the-seat)
      undo: true,
      afterConfirm: m("ui.after_confirm"),
    };
    // the page's own modules (same instances as the page's), given this state
    // (a string: the test runner would rewrite an import() in a function's source)
    await page.evaluate(`(async (st) => {
      const r = await import("/screen/assets/render.js");
      const task = await import("/screen/assets/task.js");
      const act = async () => true;
      r.render(st, {
        lang: "en",
        langs: { en: "English", de: "Deutsch" },
        act,
        openNumpad: () => {},
        openProblems: () => task.openProblems(st.problems, { act, openNumpad: () => {} }),
      });
    })(${JSON.stringify(state)})`);
    const alert = page.getByRole("alert").filter({ hasText: "This barcode is not known here" });
    await text(alert, /Scanned: 4006381333931/);
    await text(alert, /Item: T-shirt, blue, size M/);
    await text(alert, new RegExp(`Do instead: Scan an item from slot ${slot}`));
    expect(await page.locator(".face .cell").count()).toBe(40);
    expect(await page.locator(".face .cell.here").count()).toBe(1);
    await text(page.locator(".slot-box .slot-big"), slot);
    await text(page.locator('.bin[data-signal="error"]'), /Refused: see above/);
    await text(page.locator('.bin[data-outcome="short"]'), /Short/);
    await text(page.locator('[data-kind="lights_down"]'), /Watch bins 7, 8/);
    expect(await page.getByRole("textbox", { name: "Code from the label" }).count()).toBe(1);
    for (const name of ["Enter code", "Reprint label", "Skip label Supervisor", "Problem", "Undo last scan"])
      expect(await button(name).count(), name).toBe(1);
    // the notice's and the last event's (after a confirm: a unit put wrong is a supervisor's correction)
    expect(await button("Call a supervisor").count()).toBe(2);
    expect(await page.locator(".card-qty").innerText()).toBe("12");
    await expectAccessible(page, "every new state member");
    await atEverySize(page, async (size) => {
      await expectLayout(page, "every new state member");
      if (size.width === 1024 || size.width === 1920) await rig.shot(page, `all-members-${size.width}`);
    });
    await button("Problem").click();
    await page.getByRole("dialog", { name: "What is the problem?" }).waitFor();
    await expectAccessible(page, "the problem list");
    await atEverySize(page, async (size) => {
      await expectLayout(page, "the problem list");
      if (size.width === 1024) await rig.shot(page, "problems-1024");
    });
    await button("Back").click();
    // the card alone, with room: the rack face drawn with its slot lit, above the slot
    const quiet = { ...state, alert: null, notices: [], manualEntry: false };
    await page.evaluate(`(async (st) => {
      const r = await import("/screen/assets/render.js");
      const act = async () => true;
      r.render(st, { lang: "en", langs: {}, act, openNumpad: () => {}, openProblems: () => {} });
    })(${JSON.stringify(quiet)})`);
    await page.setViewportSize({ width: 1366, height: 768 });
    await expect
      .poll(() => page.getByRole("img", { name: `Rack face, slot ${slot} highlighted` }).isVisible())
      .toBe(true);
    await expectLayout(page, "the card with its rack face");
    await rig.shot(page, "rack-face-1366");
    await page.setViewportSize({ width: 1280, height: 800 });
    // the agent's next state draws the page as it is again (the buttons drawn here act on nothing)
    await ok(rig.t.call("POST", "/station/seats/front/screen/actions", { type: "cancel" }));
    await text(heading(), /^Scan an item from slot S\d\d$/);
    await expect.poll(() => page.locator(".notice").count()).toBe(0);
  });

  it("the German screen holds the same layout", async () => {
    await page.goto(`${rig.base}/screen/front?lang=de`);
    await page.locator("body[data-connection=live]").waitFor();
    await text(heading(), /^Artikel aus Fach S\d\d scannen$/);
    await text(card(), /Aus Fach S\d\d nehmen/);
    await text(card(), /Zeile \d+ von 40/);
    await text(page.locator("#connection"), "Verbunden");
    expect(await page.evaluate("document.documentElement.lang")).toBe("de");
    await expectAccessible(page, "the German screen");
    await atEverySize(page, async (size) => {
      await expectLayout(page, "the German screen");
      if (size.width === 1024) await rig.shot(page, "german-1024");
    });
  });
});
