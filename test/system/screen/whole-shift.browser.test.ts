/**
 * A whole shift at one seat, from the station box's kiosk (its screen key, an operator's rights) in
 * Debian's chromium (issue "A seat that runs a whole shift"; docs/station.md#operator-screen): the
 * operator logs in by badge, picks orders over two racks (a scan taken back, too few in a slot), a
 * supervisor's PIN switches to Put and the tote is put away, a supervisor's PIN switches to Audit and the
 * queued audit is begun, counted and closed at the seat; central pauses the seat and a supervisor's PIN
 * resumes it there; the header shows lines and units an hour; left alone, the operator is signed out for
 * idling and the session's summary reaches central with its lines, units and exceptions by kind. Every
 * step at the seat is a tap or a scan into the screen's own scanner box (only while the seat is paused,
 * when its dialog covers the screen, does the seat's scanner scan); central's part goes over its API.
 * axe-core finds no serious violation in any state visited, at 1024×768 and, for the key states,
 * 1920×1080.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAudit, view } from "../../support/audits.js";
import { deadline, until } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import {
  CORE,
  ITEM,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  putBody,
  SR,
  setStock,
} from "../../support/station.js";
import { atEverySize, expectAccessible, expectLayout, PANEL_EXTREMES } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

const PIN = "482915";
/** What each slot holds: the operator reads the slot on the screen and takes the item found there. */
const ITEM_AT: Record<string, string> = { S1: "A", S2: "B", S3: "C", S4: "D" };
/** A person's pace at the seat: well inside the idle logout, and a new scan past the debounce window. */
const STEP_MS = 3000;
const IDLE_LOGOUT_MS = 10_000;

let rig: ScreenRig;
let page: Page;
let notes: NotificationReader;
let auditId: string;
/** 403s of taps the page showed without asking for a supervisor: a button it should have asked about. */
const forbidden: string[] = [];

const heading = () => page.getByRole("heading", { level: 1 });
const last = () => page.getByRole("region", { name: "Last" });
const button = (name: string) => page.getByRole("button", { name, exact: true });
const figures = () => page.getByRole("region", { name: "Productivity" });

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The operator's next move comes a few seconds after the last, on the agent's clock. */
function step(): void {
  rig.t.clock.now += STEP_MS;
}

/** A scan into the screen's own scanner box (the embedded station's simulated scanner). */
async function scan(code: string): Promise<void> {
  step();
  const box = page.getByRole("textbox", { name: "Simulated scanner" });
  await box.fill(code);
  const posted = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/screen/"));
  await page.getByRole("button", { name: "Scan", exact: true }).click();
  await posted;
}

async function tap(name: string): Promise<void> {
  step();
  await button(name).click();
}

/** A supervisor's tap: the button marked "Supervisor", the prompt, the PIN on its keys, Authorise. */
async function supervised(
  action: string,
  button = page.getByRole("button", { name: `${action} Supervisor` }),
) {
  step();
  // a screen that changed while the PIN was typed refuses the tap as stale (docs/decisions.md, the
  // stale-tap rule): the prompt closes, and the supervisor taps again on the screen as it is now
  for (let attempt = 1; ; attempt++) {
    await button.click();
    const prompt = page.getByRole("dialog", { name: `Supervisor: ${action}` });
    await prompt.waitFor({ timeout: deadline(5000) });
    if (attempt === 1) await looks(`the supervisor's prompt for ${action}`);
    for (const d of PIN) await prompt.getByRole("button", { name: d, exact: true }).click();
    const answered = page.waitForResponse(
      (r) => r.url().endsWith("/actions") && r.request().method() === "POST",
    );
    await prompt.getByRole("button", { name: "Authorise" }).click();
    const res = await answered;
    await prompt.waitFor({ state: "hidden", timeout: deadline(5000) });
    if (res.status() === 200) return;
    expect({ status: res.status(), attempt }).toMatchObject({ status: 409 });
    expect(attempt).toBeLessThan(3);
  }
}

/** The layout rules and axe-core in this state at 1024×768, and at 1920×1080 too for a key state. */
async function looks(where: string, key = false): Promise<void> {
  const [small, large] = PANEL_EXTREMES;
  // the shift is worked at the smaller panel between the checks
  await atEverySize(
    page,
    async (size) => {
      await expectLayout(page, `${where} at ${size.width}×${size.height}`);
      await expectAccessible(page, `${where} at ${size.width}×${size.height}`);
    },
    key ? [large, small] : [small],
    small,
  );
  await rig.shot(page, where.replace(/[^a-z0-9]+/gi, "-"));
}

/** Picks the line the screen shows: reads its slot, scans the item found there, confirms, empties a full bin. */
async function pickShownLine(): Promise<void> {
  const slot = /^Scan an item from slot (\S+)$/.exec(await heading().innerText())?.[1];
  expect(slot, "the instruction names the slot").toBeDefined();
  await scan(`BC-${ITEM_AT[slot as string]}`);
  await text(heading(), /^Put \d+ × \w+ into bin \d+/);
  await tap("Confirm");
  await text(last(), /Picked/);
}

async function emptyCompleteBins(): Promise<void> {
  const empty = page.getByRole("button", { name: /^Empty bin \d+$/ });
  for (let n = await empty.count(); n > 0; n--) {
    step();
    await empty.first().click();
    await expect.poll(() => empty.count(), { timeout: deadline(5000) }).toBe(n - 1);
  }
}

beforeAll(async () => {
  rig = await startScreenRig("whole-shift", {
    station: {
      idleLogoutMs: IDLE_LOGOUT_MS,
      idleWarningMs: 5000,
      productivity: { linesPerHour: 60, unitsPerHour: 90 },
    },
  });
  rig.browser.context.setDefaultTimeout(deadline(5000));
  const t = rig.t;
  // the supervisor: an admin with a PIN, made with the agent's own service (as `pps-edge user` does)
  await t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  await t.agent.services.auth.setSupervisorPin("sam", PIN);

  // what central sends: the items, their stock on two racks, four orders, a tote, an audit
  for (const sku of ["A", "B", "C", "D", "E", "F"])
    await ok(t.call("POST", ITEM, itemBody(sku, { description: `Item ${sku}, cotton` })));
  await setStock(t, "S1", "M1", "A", 20);
  await setStock(t, "S2", "M1", "B", 20);
  await setStock(t, "S3", "M2", "C", 20);
  await setStock(t, "S4", "M2", "D", 20);
  await setStock(t, "S5", "M2", "E", 1);
  await setStock(t, "A1", "M3", "F", 4);
  await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-1", "A", 2)])));
  await ok(t.call("POST", SR, pickBody("P2", [pickLine("P2-1", "B", 1)])));
  await ok(t.call("POST", SR, pickBody("P3", [pickLine("P3-1", "C", 3)])));
  await ok(t.call("POST", SR, pickBody("P4", [pickLine("P4-1", "D", 1)])));
  await ok(t.call("POST", SR, putBody("TOTE-1", [["E", 2]], "TOTE-1")));
  auditId = await createAudit(t, { audit_param_value: { locations_list: ["M3"] } });
  await ok(t.call("POST", `/station/audits/${auditId}/start`));
  notes = new NotificationReader(t);
  await notes.catchUp();

  page = await rig.open("front");
  page.on("response", (r) => {
    if (r.status() === 403 && !(r.request().postData() ?? "").includes('"supervisor":{'))
      forbidden.push(`${r.url()} ${r.request().postData()}`);
  });
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a whole shift at one seat", { timeout: deadline(300_000) }, () => {
  it("logs in by badge and picks over two racks, a scan taken back and too few in a slot", async () => {
    await text(heading(), "Log in: scan your badge");
    await looks("the login", true);
    await scan("BADGE-alice");
    await text(page.locator("#operator"), "Operator: alice");
    await text(figures(), /Last 15 min:\s*after the first minute/);

    // the first rack comes
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    await text(heading(), /^Scan an item from slot S[12]$/);
    await looks("a pick before the scan", true);

    // the first line: scanned, its bin lit on the screen as on the light
    const slot = /slot (S\d)/.exec(await heading().innerText())?.[1] as string;
    await scan(`BC-${ITEM_AT[slot]}`);
    await text(heading(), /^Put \d+ × \w+ into bin \d+/);
    const lit = (await rig.lights()).filter((l) => l.quantity !== undefined);
    expect(lit).toHaveLength(1);
    const litBin = page.getByRole("group", { name: `Bin ${lit[0]?.ppsBinId}` });
    await expect.poll(() => litBin.getAttribute("data-light")).toBe(lit[0]?.color);
    await looks("a lit pick with undo", true);

    // taken back with one tap: the card and the light go back to before the scan
    await tap("Undo last scan");
    await text(heading(), `Scan an item from slot ${slot}`);
    await expect
      .poll(async () => (await rig.lights()).filter((l) => l.quantity !== undefined), {
        timeout: deadline(5000),
      })
      .toEqual([]);
    await looks("after the undo");
    // scanned again, confirmed
    await scan(`BC-${ITEM_AT[slot]}`);
    await text(heading(), /^Put \d+ × \w+ into bin \d+/);
    await tap("Confirm");
    await text(last(), /Picked/);
    await pickShownLine();
    await looks("the first rack picked");

    // the next rack: too few in the slot for one line
    await ok(rig.t.call("DELETE", "/station/racks/M1"));
    await ok(rig.t.call("POST", "/station/racks", { msu: "M2", locations: ["S3", "S4", "S5"] }));
    await text(heading(), "Scan an item from slot S3");
    await scan("BC-C");
    await text(heading(), /^Put 3 × C into bin \d+/);
    await tap("Problem");
    await page.getByRole("dialog", { name: "What is the problem?" }).waitFor();
    await looks("the problem's kinds");
    await button("Too few in the slot").click();
    await text(page.locator("#numpad-title"), "Too few in the slot: How many are missing?");
    await button("1").click();
    await looks("too few, keyed in");
    await button("OK").click();
    const sure = page.getByRole("dialog", { name: /^Report .*: 1\?$/ });
    await sure.waitFor();
    await looks("too few, asked once more");
    step();
    await sure.getByRole("button", { name: "Yes, report it" }).click();
    const where = page.getByRole("dialog", { name: "Where the unit goes" });
    await text(where, /Nothing to move/);
    await looks("where the units go");
    await where.getByRole("button", { name: "Done" }).click();
    await text(last(), /Problem: too few, 1 missing\s*Exception recorded/);
    // the two units there are the pick; the order ends one short, its bin says so
    await text(page.getByRole("group", { name: /^Bin \d+$/ }).filter({ hasText: "P3" }), /Short/);
    await looks("too few reported");
  });

  it("central pauses the seat: the screen says so and a scan is refused; a supervisor's PIN resumes it, the pick goes on", async () => {
    await text(heading(), "Scan an item from slot S4");
    await ok(
      rig.t.call("POST", "/station/seats/front/pause", { reason: "Rack 4 restocked", by: "Shift lead" }),
    );
    const paused = page.getByRole("dialog", { name: "Seat paused" });
    await paused.waitFor({ timeout: deadline(5000) });
    await text(paused, /Paused by Shift lead \(central\)/);
    await text(paused, /Rack 4 restocked/);
    expect(await heading().innerText()).toBe("This seat is paused: wait until it is resumed");
    await looks("a paused seat", true);
    // the paused screen takes no tap (its dialog covers it); the seat's scanner is refused, and the
    // screen says so
    expect(await rig.scan("BC-D")).toMatchObject({ outcome: { result: "refused", reason: "seat_paused" } });
    await text(last(), /Scanned BC-D\s*This seat is paused/);
    // the seat's Resume is a supervisor's: the supervisor's PIN resumes it at the seat
    await supervised("Resume", paused.getByRole("button", { name: "Resume Supervisor", exact: true }));
    await paused.waitFor({ state: "hidden", timeout: deadline(5000) });
    expect(rig.t.agent.services.seatControl.pausedSeats().has("front")).toBe(false);
    await pickShownLine();
    await emptyCompleteBins();
    await text(heading(), "No work");
    await looks("every order picked");
  });

  it("a supervisor's PIN switches to Put; the tote is put away from the screen and released", async () => {
    await supervised("Switch to Put");
    await text(page.locator("#mode"), "Put");
    await ok(
      rig.t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-1",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    await text(heading(), "Scan the tote");
    await scan("TOTE-1");
    await text(heading(), "Scan an item from tote TOTE-1");
    await scan("BC-E");
    await text(heading(), "Scan the slot for 1 × E");
    await text(page.getByRole("group", { name: "Now" }), /Suggested: slot S5/);
    await looks("a put card", true);
    await tap("Key in quantity");
    const pad = page.getByRole("dialog", { name: "Key in quantity" });
    await pad.getByRole("button", { name: "2", exact: true }).click();
    await looks("the put's numpad");
    await pad.getByRole("button", { name: "OK" }).click();
    await text(heading(), "Scan the slot for 2 × E");
    await scan("S5");
    await text(heading(), "Put 2 × E into slot S5, then confirm");
    await tap("Confirm");
    await text(last(), /Put away/);
    await text(heading(), "Tote in bin 2 is done: release it");
    await looks("a tote to release");
    await tap("Release tote in bin 2");
    await text(heading(), "No work");
    expect((await ok(rig.t.call("GET", `${SR}/TOTE-1?type=PUT`))).state).toBe("released");
  });

  it("a supervisor's PIN switches to Audit; the queued audit is begun, counted and closed at the seat", async () => {
    await supervised("Switch to Audit");
    await text(page.locator("#mode"), "Audit");
    await text(heading(), `Audit ${auditId} is waiting: begin it`);
    await looks("an audit waiting", true);
    await tap(`Begin audit ${auditId}`);
    await text(heading(), "Count slot A1: scan the slot");
    await scan("A1");
    await text(heading(), "Count slot A1: scan each item, then close the slot");
    for (let i = 0; i < 3; i++) await scan("BC-F");
    await tap("Damaged");
    await text(page.getByRole("table", { name: "Task" }), /F\s+Item F, cotton\s+3\s+1\s+0/);
    await looks("an audit slot counted", true);
    await tap("Close slot");
    await text(last(), /Slot closed/);
    expect((await view(rig.t, auditId)).audit_data[0]).toMatchObject({ actual_qty: 3 });
  });

  it("the header shows lines and units an hour against the targets", async () => {
    const shown = await figures().innerText();
    // six lines and twelve units in under two minutes: far above the targets of 60 and 90 an hour
    expect(shown).toMatch(/Last 15 min:\s*\d+ lines\/h\s*above target\s*\d+ units\/h\s*above target/);
    expect(shown).toMatch(/Session:\s*\d+ lines\/h\s*\d+ units\/h/);
    const state = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    expect(shown).toContain(`${state.productivity.session.linesPerHour} lines/h`);
    await looks("the productivity figures", true);
  });

  it("left alone, the operator is signed out; the session's summary reaches central", async () => {
    rig.t.clock.now += IDLE_LOGOUT_MS + 1000;
    await text(heading(), "Log in: scan your badge");
    await text(
      page.getByRole("alert").filter({ hasText: "signed out after idling" }),
      /^alice was signed out/,
    );
    expect(await figures().count()).toBe(0);
    await looks("signed out for idling", true);
    const told: Array<{ notification_type: string; notification_data: unknown }> = [];
    await until("the session's summary sent to central", async () => {
      told.push(...(await notes.next()));
      return told.some((n) => n.notification_type === "session_summary");
    });
    const summaries = told.filter((n) => n.notification_type === "session_summary");
    expect(summaries).toHaveLength(1);
    const summary = summaries[0]?.notification_data as Record<string, unknown>;
    expect(summary).toMatchObject({ seat: "front", operator: "alice", ended_by: "idle" });
    // lines: the picks of A, B, C and D, the put of E, the audit's line of F; units: picked 2 + 1 + 2 + 1,
    // put 2, counted 3 good and 1 damaged; exceptions: C's too few, by its reason
    expect(summary).toMatchObject({ lines: 6, units: 12, exceptions: { item_missing: 1 } });
    expect(Object.keys(summary.exceptions as object)).toEqual(["item_missing"]);
  });

  it("no shown button answered 403", () => {
    expect(forbidden).toEqual([]);
  });
});
