/**
 * The operator screen in each of its eight languages at 1024×768 (docs/station.md#operator-screen,
 * "Languages"): the screen is driven once through its main states (the login, waiting for a rack, a rack
 * presented, a bin lit, the numpad, the problem report and its confirmation, the unscannable path,
 * the language chooser, a refusal, every notice and alert at once, a bin to take away, an item scanned
 * unit by unit, a put from tote to slot, an audit slot), and in each state the page is drawn in every
 * language in turn (`?lang=`, which changes nothing at the station). In each: no text is wider or taller
 * than its box and no control is cut off (the failure names the language, the state, the catalogue key
 * and the element), the layout rules hold, and axe-core finds no serious violation. The chooser holds at
 * 1920×1080 too, closes on Escape, and its choice is the operator's; an unknown `?lang=` is ignored. The
 * last event line holds every `did` and refusal text; the sign-in form of a screen without a session fits
 * in each language too.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUES, render } from "../../../src/station/screen/messages/messages.js";
import { LANGUAGES, type Lang } from "../../../src/station/screen/state/types.js";
import { createAudit } from "../../support/audits.js";
import { deadline } from "../../support/deadline.js";
import { CORE, type Json, ok, putBody, SR, seedItem, setStock } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";
import { describeMisfits, misfits, pattern } from "./support/text-fit.js";

let rig: ScreenRig;
let page: Page;
const SEAT = "/station/seats/front/screen";

/** What the instruction area says in a state: a catalogue key (its placeholders match any text). */
type Say = { key: string; params?: Record<string, string | number> };
const said = (lang: Lang, s: Say) =>
  s.params ? render(lang, s.key, s.params) : pattern(render(lang, s.key));

/** A tap the agent takes for the seat (the page's own buttons are tested in the other screen tests). */
const act = async (body: Json) => {
  rig.later();
  return ok(rig.t.call("POST", `${SEAT}/actions`, body));
};
const tr = (lang: Lang, key: string, params: Record<string, string | number> = {}) =>
  render(lang, key, params);

/**
 * The page drawn in `lang` (a reload with `?lang=`), showing `say` in its instruction or alert; `open`
 * then opens a dialog of the state.
 */
async function drawIn(lang: Lang, say: Say, open?: (lang: Lang) => Promise<void>) {
  await page.goto(`${rig.base}/screen/front?lang=${lang}`);
  await page.locator("body[data-connection=live]").waitFor();
  await expect
    .poll(() => page.evaluate("document.documentElement.lang"), { timeout: deadline(5000) })
    .toBe(lang);
  const want = said(lang, say);
  const shown = () =>
    page.evaluate(`(() => {
      const a = document.getElementById("alert");
      const el = a && !a.hidden ? a.querySelector(".alert-reason") : document.getElementById("instruction");
      return el ? el.textContent : "";
    })()`) as Promise<string>;
  await expect.poll(shown, { timeout: deadline(5000) }).toMatch(want);
  if (open) await open(lang);
}

/** Every check of one state, in every language; the failures of all languages are reported at once. */
async function everyLanguage(where: string, say: Say, open?: (lang: Lang) => Promise<void>) {
  const found: string[] = [];
  for (const lang of LANGUAGES) {
    await drawIn(lang, say, open);
    found.push(...describeMisfits(lang, where, await misfits(page)));
    await expectLayout(page, `${lang} · ${where}`);
    await expectAccessible(page, `${lang} · ${where}`);
    if (lang === "de" || lang === "pl") await rig.shot(page, `${where.replace(/\W+/g, "-")}-${lang}`);
  }
  // soft: the run goes on, so one run names every text that does not fit, in every state
  expect.soft(found, `texts that do not fit in ${where}`).toEqual([]);
}

/** Opens a dialog by its button's name and waits for it by its own name (both in `lang`). */
const dialog = (buttonKey: string, titleKey: string) => async (lang: Lang) => {
  await page.getByRole("button", { name: tr(lang, buttonKey), exact: true }).click();
  await page.getByRole("dialog", { name: tr(lang, titleKey) }).waitFor();
};

beforeAll(async () => {
  // a refusal's alert stays while the test draws it in every language (the agent's clock is the test's)
  rig = await startScreenRig("languages", { station: { errorSignalMs: 60_000 } });
  page = await rig.open("front");
  await page.setViewportSize({ width: 1024, height: 768 });
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: every language fits at 1024×768", { timeout: deadline(300_000) }, () => {
  it("the login, a pick from waiting to the bin taken away, a refusal, every notice, a scan-each item", async () => {
    await everyLanguage("the login", { key: "instruction.login" });
    await act({ type: "login", user: "Małgorzata" });
    await seedPick(rig.t, { sku: "PANTS", order: "P1", qty: 2, slot: "S1", msu: "M1" });
    await everyLanguage("waiting for a rack", { key: "instruction.waiting_rack" });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    const take = { key: "instruction.scan_item_from_slot", params: { slot: "S1" } };
    await everyLanguage("a rack presented", take);
    await rig.scan("BC-PANTS");
    const put = { key: "instruction.put_into_bin" };
    await everyLanguage("a bin lit", put);
    await everyLanguage("the numpad", put, dialog("ui.key_in", "ui.key_in"));
    await everyLanguage("the problem report", put, dialog("ui.problem", "ui.problem_title"));
    // its quantity keyed, the confirmation asked (and not given: nothing is reported)
    await everyLanguage("a problem's confirmation", put, async (lang) => {
      await dialog("ui.problem", "ui.problem_title")(lang);
      await page
        .getByRole("dialog", { name: tr(lang, "ui.problem_title") })
        .getByRole("button")
        .first()
        .click();
      await page.locator("#numpad-ok").click();
      await page.getByRole("dialog", { name: pattern(tr(lang, "ui.problem_confirm")) }).waitFor();
    });
    // at a lit pick, Unscannable first asks for the slot's label or a typed code (docs/station.md#paths-of-a-shift)
    await everyLanguage("the unscannable path", put, async (lang) => {
      const exception = tr(lang, "exception.UNSCANNABLE");
      await page.getByRole("button", { name: exception, exact: true }).click();
      await page.getByRole("dialog", { name: tr(lang, "ui.unscannable_title") }).waitFor();
    });
    await everyLanguage("the language chooser", put, async (lang) => {
      const name = `${tr(lang, "ui.language")}: ${tr(lang, "ui.language_name")}`;
      await page.getByRole("button", { name, exact: true }).click();
      const chooser = page.getByRole("dialog", { name: tr(lang, "ui.language") });
      await chooser.waitFor();
      // every language by its own name, the one in use pressed
      for (const other of LANGUAGES)
        expect(await chooser.getByRole("button", { name: tr(other, "ui.language_name") }).count()).toBe(1);
      const pressed = chooser.getByRole("button", { name: tr(lang, "ui.language_name") });
      expect(await pressed.getAttribute("aria-pressed")).toBe("true");
      expect(await pressed.getAttribute("lang")).toBe(lang);
    });
    // the chooser is a new dialog: at 1920×1080 too
    await page.setViewportSize({ width: 1920, height: 1080 });
    try {
      await drawIn("en", put);
      await page.getByRole("button", { name: "Language: English", exact: true }).click();
      await page.getByRole("dialog", { name: "Language" }).waitFor();
      expect(describeMisfits("en", "the language chooser", await misfits(page))).toEqual([]);
      await expectLayout(page, "en · the language chooser");
      await expectAccessible(page, "en · the language chooser at 1920×1080");
      await rig.shot(page, "the-language-chooser-1920");
      // Escape closes it, and a choice there is the operator's language
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Language" }).waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Language: English", exact: true }).click();
      await page.getByRole("dialog", { name: "Language" }).getByRole("button", { name: "Türkçe" }).click();
      await expect.poll(async () => (await ok(rig.t.call("GET", SEAT))).lang).toBe("tr");
    } finally {
      await page.setViewportSize({ width: 1024, height: 768 });
    }
    // an unknown ?lang= is ignored: the operator's language is drawn
    await page.goto(`${rig.base}/screen/front?lang=xx`);
    await expect.poll(() => page.evaluate("document.documentElement.lang")).toBe("tr");
    await act({ type: "language", lang: null });
    await rig.scan("NOPE-4006381333931");
    await everyLanguage("a refusal", { key: "refusal.unknown_barcode" });
    await everyLanguage(
      "every notice and alert at once",
      { key: "refusal.unknown_barcode" },
      async (lang) => {
        await drawWorstCase(lang);
      },
    );
    // the lit bin's button: the units are in the bin, the order is complete, the bin is taken away
    await act({ type: "confirm" });
    await everyLanguage("a bin to take away", { key: "instruction.empty_bin" });
    const bin = (await ok(rig.t.call("GET", SEAT))).bins.find((b: Json) => b.state === "complete")?.id;
    await act({ type: "empty", bin });
    await everyLanguage("no work", { key: "instruction.no_work" });
    // an item scanned unit by unit: its tag in the list, the count on the card
    await seedPick(rig.t, {
      sku: "SERIAL",
      order: "P2",
      qty: 3,
      slot: "S9",
      item: { productAttributes: { product_sku: "SERIAL", scan_required: true }, description: "serialised" },
    });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S9"] }));
    await rig.scan("BC-SERIAL");
    await everyLanguage("a scan-each item, 1 of 3", { key: "instruction.scan_each_into_bin" });
    await rig.scan("BC-SERIAL");
    await rig.scan("BC-SERIAL");
    const full = (await ok(rig.t.call("GET", SEAT))).bins.find((b: Json) => b.state === "complete")?.id;
    await act({ type: "empty", bin: full });
  });

  it("a put from the tote to the slot, and an audit slot", async () => {
    await seedItem(rig.t, "TSHIRT");
    await ok(rig.t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(rig.t.call("POST", SR, putBody("TOTE-7", [["TSHIRT", 10]], "TOTE-7")));
    await ok(
      rig.t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-7",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    await everyLanguage("a put: the tote", { key: "instruction.scan_tote_or_item" });
    await rig.scan("TOTE-7");
    await rig.scan("BC-TSHIRT");
    const slotFor = { key: "instruction.scan_slot_for_put" };
    await everyLanguage("a put: an item counted", slotFor);
    await everyLanguage("a put: its problems", slotFor, dialog("ui.problem", "ui.problem_title"));
    await act({ type: "keyin", quantity: 10 });
    await rig.scan("S1");
    await everyLanguage("a put: the slot chosen", { key: "instruction.put_into_slot" });
    await act({ type: "confirm" });
    await everyLanguage("a put: the tote done", { key: "instruction.release_tote" });
    await act({ type: "release", bin: "2" });

    await seedItem(rig.t, "CNT");
    await setStock(rig.t, "A1", "M2", "CNT", 4);
    await ok(rig.t.call("PUT", "/station/mode", { mode: "audit" }));
    const id = await createAudit(rig.t, { audit_param_value: { locations_list: ["M2"] } });
    await ok(rig.t.call("POST", `/station/audits/${id}/start`));
    await ok(rig.t.call("POST", `/station/audits/${id}/begin`, { seat: "front" }));
    await everyLanguage("an audit: the slot", {
      key: "instruction.scan_slot_to_count",
      params: { slot: "A1" },
    });
    await rig.scan("A1");
    await rig.scan("BC-CNT");
    await everyLanguage("an audit: counting", { key: "instruction.count_slot", params: { slot: "A1" } });
  });

  it("the last event line holds every `did` and refusal text after a 13-digit barcode, in every language", async () => {
    const real = await ok(rig.t.call("GET", SEAT));
    const found: string[] = [];
    for (const lang of LANGUAGES) {
      await drawIn(lang, { key: "instruction.count_slot", params: { slot: "A1" } });
      const keys = Object.keys(CATALOGUES[lang]).filter((k) => /^(did|refusal)\./.test(k));
      // the page's own modules draw each text as the last event; what does not fit its line is kept
      const cut = (await page.evaluate(`(async (st, keys) => {
        const r = await import("/screen/assets/render.js");
        const act = async () => true;
        const out = [];
        for (const [i, key] of keys.entries()) {
          const refused = key.startsWith("refusal.");
          const lastEvent = { seq: 1e6 + i, at: "", input: "scan", text: "4006381333931", result: refused ? "refused" : "done",
            tone: refused ? "refused" : "good", message: { key, params: {} } };
          r.render({ ...st, lastEvent, sound: null }, { lang: ${JSON.stringify(lang)}, langs: {}, act, openNumpad: () => {}, confirmException: () => {}, openProblems: () => {} });
          const el = document.getElementById("last");
          if (el.scrollWidth > el.clientWidth + 1) out.push(key + " (" + (el.scrollWidth - el.clientWidth) + " px): " + el.textContent);
        }
        return out;
      })(${JSON.stringify(real)}, ${JSON.stringify(keys)})`)) as string[];
      found.push(...cut.map((c) => `${lang} · the last event: section#last.last overflows, key ${c}`));
    }
    expect(found).toEqual([]);
  });

  it("the sign-in form of a screen without a session", async () => {
    await page.context().clearCookies();
    const found: string[] = [];
    for (const lang of LANGUAGES) {
      await page.goto(`${rig.base}/screen/front?lang=${lang}`);
      await expect
        .poll(() => page.locator("#signin-title").innerText(), { timeout: deadline(5000) })
        .toBe(tr(lang, "ui.sign_in_title"));
      expect(await page.evaluate("document.documentElement.lang")).toBe(lang);
      found.push(...describeMisfits(lang, "the sign-in form", await misfits(page)));
      await expectLayout(page, `${lang} · the sign-in form`);
      await expectAccessible(page, `${lang} · the sign-in form`);
    }
    expect(found).toEqual([]);
  });
});

/**
 * The longest texts at once, drawn by the page's own modules from the seat's real state: the refusal's
 * alert with the scanned code, the item and what to do instead, a bin's error signal and outcomes, and
 * every notice with its buttons (the scanner down with the code field, the lights down, a label not
 * printed because the printer is not installed).
 */
async function drawWorstCase(lang: Lang) {
  const real = (await ok(rig.t.call("GET", SEAT))) as Json & { bins: Json[]; alert: Json };
  const m = (key: string, params: Record<string, string | number> = {}) => ({ key, params });
  const state = {
    ...real,
    alert: { ...real.alert, item: "T-shirt, blue, size M", instead: m("instead.unknown_barcode") },
    bins: real.bins.map((b, i) => ({
      ...b,
      signal: i === 1 ? "error" : null,
      outcome: i === 2 ? "short" : i === 3 ? "complete" : null,
    })),
    notices: [
      { kind: "scanner_down", text: m("notice.scanner_down") },
      { kind: "lights_down", text: m("notice.lights_down", { bins: "7, 8" }), bins: ["7", "8"] },
      {
        kind: "printer_failed",
        // the longest of the printer notices in every language: the carrier's label the printer cannot take
        text: m("notice.printer_carrier_format", { bin: "4" }),
        bins: ["4"],
        actions: ["reprint", "skip", "supervisor"],
      },
    ],
    manualEntry: true,
  };
  await page.evaluate(`(async (st) => {
    const r = await import("/screen/assets/render.js");
    const langs = await (await fetch("/screen/assets/languages")).json();
    const act = async () => true;
    r.render(st, { lang: ${JSON.stringify(lang)}, langs, act, openNumpad: () => {}, confirmException: () => {}, openProblems: () => {} });
  })(${JSON.stringify(state)})`);
  await page.locator('.notice[data-kind="printer_failed"]').waitFor();
}
