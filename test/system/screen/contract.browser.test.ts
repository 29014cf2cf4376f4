/**
 * The operator screen on the state members the agent adds for the issue "Operator screen for a person at
 * arm's length" (version, alert, bin signal and outcome, card, problems, notices, manualEntry, keyin,
 * sound): a refused scan takes over the instruction area, a wrong bin's button shows the error signal on
 * its tile, a problem is reported only through quantity and confirmation, a device down and a failed
 * label are said in plain words with what to do, a tap on a screen that changed is refused and said so.
 * The station: seat front with a simulated scanner, seat back with a scanner on a port that is not there,
 * bins 1–6 on simulated lights and 7–8 on a controller that is not there, labels printed by the agent
 * into a folder it cannot write.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";
import { atEverySize, blinkContrast, expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;
const dir = tempDir();
const PIN = "482915";

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string | RegExp, p: Page = page) =>
  p.getByRole("button", { name, exact: typeof name === "string" });
const bin = (id: string): Locator => page.getByRole("group", { name: `Bin ${id}` });
async function text(l: Locator, want: string | RegExp, timeout = 5000) {
  await expect.poll(() => l.innerText(), { timeout }).toMatch(want);
}
/** The lit bin of seat front (after a scan). */
async function litBin(): Promise<string> {
  const s = await ok(rig.t.call("GET", "/station/seats/front/screen"));
  const lit = (s.bins as Array<{ id: string; mine: boolean }>).find((b) => b.mine);
  if (!lit) throw new Error("no bin lit");
  return lit.id;
}
/** An order of `qty` of a new item in slot `slot`, on rack M1 presented at the station. */
async function order(id: string, sku: string, slot: string, qty: number, attrs?: Record<string, unknown>) {
  await seedItem(rig.t, sku);
  await setStock(rig.t, slot, "M1", sku, 10);
  await ok(rig.t.call("POST", SR, pickBody(id, [pickLine(`${id}-1`, sku, qty, attrs)])));
  await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: [slot] }));
}
/** Each test starts from the state the one before it leaves; this one makes sure REF's bin is lit. */
async function ensureLit() {
  if (!/^Put /.test(await heading().evaluate((e) => String(e.textContent)))) await rig.scan("BC-REF");
  await text(heading(), /^Put 2 × REF into bin \d/);
}
/** REF's order done (whatever the tests before left of it), its bin emptied. */
async function finishRef() {
  const now = async () => String(await heading().evaluate((e) => e.textContent));
  if (/slot S1$/.test(await now())) await rig.scan("BC-REF");
  if (/^Put \d × REF/.test(await now())) {
    await button("Confirm").click();
    await expect.poll(now).not.toMatch(/^Put \d × REF/);
  }
  await emptyCompleteBins();
}
async function emptyCompleteBins() {
  const bins = (await ok(rig.t.call("GET", "/station/state"))).bins as Array<{
    ppsBinId: string;
    state: string;
  }>;
  for (const b of bins.filter((x) => x.state === "complete"))
    await ok(rig.t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: b.ppsBinId }));
}

beforeAll(async () => {
  const file = join(dir, "station.yaml");
  const lights = [1, 2, 3, 4, 5, 6].map(
    (b) => `    - { id: "${b}", light: { device: sim-ptl, address: "${b}" } }`,
  );
  const dark = [7, 8].map((b) => `    - { id: "${b}", light: { device: ptl-2, address: "00100${b}" } }`);
  writeFileSync(
    file,
    [
      "station:",
      "  seats: [front, back]",
      "  bins:",
      ...lights,
      ...dark,
      "devices:",
      "  - { id: sim-ptl, kind: ptl-controller, profile: sim, transport: sim }",
      `  - { id: ptl-2, kind: ptl-controller, profile: sortexx-ascii, transport: { serial: ${join(dir, "no-ptl")} } }`,
      "  - { id: scanner-front, kind: scanner, profile: sim, seat: front, transport: sim }",
      `  - { id: scanner-back, kind: scanner, profile: serial-scanner-cr, seat: back, transport: { serial: ${join(dir, "no-scanner")} } }`,
      "",
    ].join("\n"),
  );
  // a file where the label folder should be: the agent cannot print
  const labels = join(dir, "labels");
  writeFileSync(labels, "not a folder");
  rig = await startScreenRig("contract", {
    station: { file },
    printing: { mode: "station", printer: "file", dir: labels },
  });
  // a supervisor (docs/station.md#supervisor-at-the-seat): the station box's display asks for their PIN
  await rig.t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  await rig.t.agent.services.auth.setSupervisorPin("sam", PIN);
  page = await rig.open("front");
  rig.browser.context.setDefaultTimeout(deadline(5000));
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: the agent's new state members", { timeout: deadline(60_000) }, () => {
  it("a refused scan takes over the instruction area: the reason, the code, what to do instead", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("erin");
    await button("Log in").click();
    await order("REF-1", "REF", "S1", 2);
    await text(heading(), "Scan an item from slot S1");
    await rig.scan("NOPE-42");
    const alert = page.locator("#alert");
    await expect.poll(() => page.locator("body").getAttribute("data-alert")).toBe("refused");
    expect(await alert.getAttribute("role")).toBe("alert");
    await text(alert, /Scanned: NOPE-42/);
    await text(alert, /Do instead:/);
    expect(await heading().isVisible()).toBe(false);
    // words only: no message key shows
    expect(await alert.innerText()).not.toMatch(/\b[a-z]+\.[a-z_]+\b/);
    await expectAccessible(page, "the refused-scan takeover");
    await atEverySize(page, async () => {
      await expectLayout(page, "the refused-scan takeover");
    });
    await rig.shot(page, "refused-takeover");
    // a good scan ends it
    await rig.scan("BC-REF");
    await expect
      .poll(() => page.locator("body").getAttribute("data-alert"), { timeout: deadline(10_000) })
      .toBe("none");
    await text(heading(), /Put 2 × REF into bin \d/);
  });

  it("the card from the state: the slot on the rack face (or its label), line n of m, the bin in its light's colour", async () => {
    await ensureLit();
    const s = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    expect(s.card).toMatchObject({ phase: "put", row: { sku: "REF" }, quantity: 2, line: 1, lines: 1 });
    const card = page.getByRole("group", { name: "Now" });
    await text(card, /Put into bin \d/);
    await text(card, /Line 1 of 1/);
    if (s.card.face) {
      expect(await card.locator(".face .cell").count()).toBe(s.card.face.rows * s.card.face.cols);
      expect(await card.locator(".face .cell.here").count()).toBe(1);
    }
    await text(card.locator(".slot-big"), s.card.slot);
    if (s.card.binColor)
      expect(await card.locator(".card-bin").getAttribute("data-color")).toBe(s.card.binColor);
    expect(await card.locator(".card-qty").innerText()).toBe("2");
  });

  it("the numpad refuses more than the key-in's maximum as it is keyed", async () => {
    await ensureLit();
    const s = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    expect(s.keyin).toMatchObject({ item: expect.any(String), expected: 2, max: expect.any(Number) });
    const max = s.keyin.max as number;
    await button("Key in quantity").click();
    const pad = page.getByRole("dialog", { name: "Key in quantity" });
    await text(pad, /: expected 2/);
    // with nothing keyed, each digit above the maximum cannot be keyed
    for (let d = 1; d <= 9; d++)
      expect(await pad.getByRole("button", { name: String(d), exact: true }).isDisabled()).toBe(d > max);
    await pad.getByRole("button", { name: "Close" }).click();
  });

  it("a wrong bin's button shows the error signal on its tile, its text readable in both blink phases", async () => {
    await ensureLit();
    const lit = await litBin();
    const wrong = lit === "1" ? "2" : "1";
    await ok(rig.t.call("POST", "/station/sim/press", { ppsBinId: wrong, button: "confirm" }));
    await expect.poll(() => bin(wrong).getAttribute("data-signal")).toBe("error");
    await text(bin(wrong), /Refused: see above/);
    for (const ratio of await blinkContrast(page, `.bin[data-signal="error"]`))
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    await expectAccessible(page, "a wrong bin's error signal");
    await rig.shot(page, "wrong-bin");
    await button("Cancel").click();
    // the next test starts from the state this tap leads to, not from the one it was made on
    await expect.poll(() => button("Cancel").count()).toBe(0);
  });

  it("a problem: reachable before the scan, chosen, its quantity keyed, confirmed; then where the unit goes; the bin shows short", async () => {
    if (await button("Cancel").count()) await button("Cancel").click();
    await text(heading(), "Scan an item from slot S1");
    await button("Problem").click();
    const dialog = page.getByRole("dialog", { name: "What is the problem?" });
    await dialog.waitFor();
    await expectAccessible(page, "the problem list");
    await atEverySize(page, async () => {
      await expectLayout(page, "the problem list");
    });
    const s = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    const problems = s.problems as Array<{ kind: string; max: number; default: number }>;
    const missing = problems.find((p) => p.kind === "missing");
    expect(missing).toBeDefined();
    const choice = dialog.getByRole("button").first();
    await choice.click();
    // the numpad, with what is left keyed in
    const pad = page.locator("#numpad");
    await expect.poll(() => pad.isVisible()).toBe(true);
    await expect.poll(() => page.locator("#numpad-value").innerText()).toBe(String(missing?.default));
    await button("Clear").click();
    await button("1").click();
    await button("OK").click();
    const confirm = page.getByRole("dialog", { name: /^Report .*: 1\?$/ });
    await confirm.waitFor();
    await rig.shot(page, "problem-confirm");
    const posted = page.waitForRequest((r) => r.url().endsWith("/screen/actions") && r.method() === "POST");
    await button("Yes, report it").click();
    const body = (await posted).postDataJSON();
    expect(body).toEqual({
      type: "problem",
      kind: "missing",
      quantity: 1,
      confirmed: true,
      version: expect.any(Number),
    });
    await page.getByRole("dialog", { name: "Where the unit goes" }).waitFor();
    await rig.shot(page, "problem-destination");
    await button("Done").click();
    // nothing was picked: the line waits for the unit the slot still has; once it is in, the bin is short
    await text(heading(), "Scan an item from slot S1");
    await rig.scan("BC-REF");
    await text(heading(), /^Put 1 × REF into bin \d/);
    await button("Confirm").click();
    await expect
      .poll(() => page.locator('[data-outcome="short"]').count(), { timeout: deadline(10_000) })
      .toBeGreaterThan(0);
    await expectAccessible(page, "a short bin");
    await rig.shot(page, "bin-short");
    await emptyCompleteBins();
  });

  it("a mode switch tapped on the station box's display is a supervisor's: it asks for one, closed it changes nothing", async () => {
    await expect.poll(() => button("Switch to Put Supervisor").count()).toBe(1);
    const sent: Array<{ type: string; pending?: { type: string } | null }> = [];
    const watch = (r: { url(): string; postDataJSON(): unknown }) => {
      if (r.url().endsWith("/screen/actions")) sent.push(r.postDataJSON() as (typeof sent)[number]);
    };
    page.on("request", watch);
    await button("Switch to Put Supervisor").click();
    const dialog = page.getByRole("dialog", { name: "Supervisor: Switch to Put" });
    await dialog.waitFor();
    await expectAccessible(page, "the supervisor's prompt");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
    page.off("request", watch);
    // no tap was sent (no 403 to answer): only the prompt, opened for the switch and closed, was told to
    // the agent (a badge on the seat's scanner authorises it meanwhile); the mode stays
    await expect.poll(() => sent.at(-1)?.pending).toBeNull();
    expect(sent.every((b) => b.type === "supervisor_prompt")).toBe(true);
    expect(sent[0]?.pending).toMatchObject({ type: "mode", mode: "put" });
    await text(page.locator("#mode"), "Pick");
  });

  it("a tap on a screen that has changed is refused: the page says so and shows the latest state", async () => {
    await expect.poll(() => button("Log out").count()).toBe(1);
    // the tap carries the version of a state older than the one the agent has
    await page.route("**/screen/actions", async (route) => {
      const body = route.request().postDataJSON();
      await route.continue({ postData: JSON.stringify({ ...body, version: body.version - 1 }) });
    });
    try {
      await button("Log out").click();
      await text(page.locator("#flash"), "The screen changed: look again");
    } finally {
      await page.unroute("**/screen/actions");
    }
    await expect.poll(() => button("Log out").count()).toBe(1);
  });

  it("a label that did not print: the reason in words, Reprint, Skip and Call a supervisor", async () => {
    const pack = { shipping_address: "Jane Roe\n1 Main St", packing_box_id: "BOX-7", order_number: "O-7" };
    await finishRef();
    await order("LBL-1", "LBL", "S4", 1, pack);
    await text(heading(), "Scan an item from slot S4");
    await rig.scan("BC-LBL");
    await expect.poll(() => page.locator("body").getAttribute("data-last-tone")).toBe("good");
    await button("Confirm").click();
    // the order is complete: the state says so, and only then the chord plays
    await expect
      .poll(async () => (await ok(rig.t.call("GET", "/station/seats/front/screen"))).sound?.kind)
      .toBe("complete");
    await expect.poll(() => page.locator("body").getAttribute("data-last-tone")).toBe("complete");
    const notice = page.locator('[data-kind="printer_failed"]');
    await notice.waitFor({ timeout: deadline(10_000) });
    for (const name of ["Reprint label", "Skip label Supervisor", "Call a supervisor"])
      expect(await notice.getByRole("button", { name, exact: true }).count()).toBe(1);
    expect(await notice.innerText()).not.toMatch(/ENOTDIR|EEXIST|errno/);
    await expectAccessible(page, "a failed label");
    await atEverySize(page, async () => {
      await expectLayout(page, "a failed label");
    });
    await rig.shot(page, "printer-failed");
    const posted = page.waitForRequest(
      (r) =>
        r.url().endsWith("/screen/actions") &&
        r.method() === "POST" &&
        (r.postDataJSON() as { type: string }).type === "skip_label",
    );
    // skipping a label is a supervisor's: the supervisor's PIN goes with the tap
    await notice.getByRole("button", { name: "Skip label Supervisor" }).click();
    const dialog = page.getByRole("dialog", { name: "Supervisor: Skip label" });
    for (const d of PIN) await dialog.getByRole("button", { name: d, exact: true }).click();
    await dialog.getByRole("button", { name: "Authorise" }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      type: "skip_label",
      bin: expect.any(String),
      supervisor: { pin: PIN },
    });
    await notice.waitFor({ state: "detached", timeout: deadline(10_000) });
  });

  it("a scanner down: said in words, with a code entry that scans; lights down: which bins to watch", async () => {
    const back = await rig.browser.context.newPage();
    try {
      const keys = await ok(rig.t.call("GET", "/station/seats/back/screen"));
      expect(keys.manualEntry).toBe(true);
      // the seat's own screen key, as its kiosk opens it: the front seat's session does not open back's screen
      await back.goto(rig.kioskUrl("back"));
      await back.waitForURL(`${rig.base}/screen/back`);
      await back.locator("body[data-connection=live]").waitFor();
      const scanner = back.locator('[data-kind="scanner_down"]');
      await scanner.waitFor();
      await text(back.locator('[data-kind="lights_down"]'), /Watch bins 7, 8/);
      await expectAccessible(back, "devices down");
      await back.getByRole("textbox", { name: "Code from the label" }).fill("BADGE-fay");
      await button("Enter code", back).click();
      await expect.poll(() => back.locator("#operator").innerText()).toBe("Operator: fay");
      await rig.shot(back, "scanner-down");
    } finally {
      await back.close();
    }
  });
});
