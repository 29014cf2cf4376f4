#!/usr/bin/env node
// The docs/station.md#try-it-without-hardware walkthrough (a pick, a put, an audit), done from the operator
// screen in Debian's chromium with the station box's KEY session (`?key=`, an operator's rights, as a kiosk
// opens it), a supervisor authorising each mode switch at the seat with their PIN; a screenshot of each
// step into docs/screen/ (`npm run docs:screen` builds first), on a 1366×768 panel; then a rack of 16 lines
// (presented, a line lit, the numpad, a refused scan). The agent runs on its embedded simulated station in
// a temporary data folder; what central sends (item, stock, orders, the audit and its start) goes over the
// API as in docs/station.md#try-it-without-hardware, everything else from the screen. A step that stops
// working throws, and the script exits non-zero (.ci/run runs it).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { chromium } from "playwright-core";
import { createAgent } from "../dist/app/agent.js";
import { parseConfig } from "../dist/config/config.load.js";

const OUT = fileURLToPath(new URL("../docs/screen/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pps-edge-walkthrough-"));
const config = parseConfig({
  dataDir: dir,
  adminPassword: "walkthrough-password",
  http: { host: "127.0.0.1", port: 0 },
  mqtt: { url: "off" },
  log: { level: "silent" },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
await agent.start();
// the supervisor (docs/station.md#supervisor-at-the-seat): `pps-edge user add sam --role admin`, then
// `pps-edge user supervisor sam --pin`
const PIN = "482915";
await agent.services.auth.addUser("sam", "sam-walkthrough-password", "admin");
await agent.services.auth.setSupervisorPin("sam", PIN);
const API = `http://127.0.0.1:${agent.address.port}`;
const creds = JSON.parse(readFileSync(join(dir, "initial-credentials.json"), "utf8"));
const tokenRes = await fetch(`${API}/api-gateway/auth-service/platform-auth/oauth/token`, {
  method: "POST",
  headers: { Authorization: creds.basicAuthorization, "Content-Type": "application/x-www-form-urlencoded" },
  body: "grant_type=password&username=admin&password=walkthrough-password",
});
const TOKEN = (await tokenRes.json()).access_token;
async function call(method, path, body) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => null);
}

const profile = mkdtempSync(join(tmpdir(), "pps-edge-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.PPS_EDGE_CHROMIUM ?? "/usr/bin/chromium",
  viewport: { width: 1366, height: 768 },
  deviceScaleFactor: 1,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
const page = context.pages()[0] ?? (await context.newPage());
mkdirSync(OUT, { recursive: true });
// the screenshots are made again from 01: the old ones go (a renumbered step leaves none behind)
for (const f of readdirSync(OUT)) if (/^\d\d-.*\.png$/.test(f)) rmSync(join(OUT, f));
let n = 0;
let auditId = null;
async function shot(name, until) {
  if (until) await page.getByRole("heading", { level: 1, name: until }).waitFor();
  await page.waitForTimeout(150);
  n++;
  // the audit's id is a random UUID: drawn as "A-1" so the screenshots stay the same from run to run
  if (auditId)
    await page.evaluate((id) => {
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode())
        t.textContent = t.textContent.replaceAll(id, "A-1");
    }, auditId);
  await page.screenshot({
    path: join(OUT, `${String(n).padStart(2, "0")}-${name}.png`),
    animations: "disabled",
  });
  process.stdout.write(`docs/screen/${String(n).padStart(2, "0")}-${name}.png\n`);
}
const button = (name) => page.getByRole("button", { name, exact: true });
async function item(sku, barcode, description) {
  await call("POST", "/api-gateway/mdm-service/wms-masterdata/item", {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "shirts",
    attributes: {
      weight: { value: 250, uom: { unit: "G" } },
      dimension: { length: 30, width: 20, height: 2, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku },
    barcodeList: [{ barcode }],
    description,
  });
}
/** A mode switch: a supervisor's tap, authorised at the seat with the supervisor's PIN. */
async function switchTo(mode, shotName) {
  // a refused scan's alert ends by itself after station.errorSignalMs: the prompt is drawn after it
  await page.locator("#alert").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: new RegExp(`^Switch to ${mode}`) }).click();
  const dialog = page.getByRole("dialog", { name: `Supervisor: Switch to ${mode}` });
  await dialog.waitFor();
  // a tap made while the screen changed (the refused scan's alert ending) is refused as stale and the
  // prompt stays: the supervisor types the PIN again, as at the station (three tries, then the step fails)
  for (let attempt = 1; ; attempt++) {
    for (const d of PIN) await dialog.getByRole("button", { name: d, exact: true }).click();
    if (shotName && attempt === 1) await shot(shotName);
    const answer = page.waitForResponse((r) => r.url().endsWith("/screen/actions"));
    await dialog.getByRole("button", { name: "Authorise" }).click();
    const res = await answer;
    if (res.ok()) break;
    if (attempt === 3) throw new Error(`Switch to ${mode}: ${res.status()} ${await res.text()}`);
  }
  await dialog.waitFor({ state: "hidden" });
  await page.locator(`#mode[data-mode="${mode.toLowerCase()}"]`).waitFor();
}
async function scan(barcode) {
  await page.getByRole("textbox", { name: "Simulated scanner" }).fill(barcode);
  await button("Scan").click();
  await page.waitForTimeout(400); // the simulated scanner debounces a repeat within 300 ms, as a real one
}

try {
  const keys = JSON.parse(readFileSync(join(dir, "screen-keys.json"), "utf8"));
  await page.goto(`${API}/screen/front?key=${keys.front}`);
  await shot("login", "Log in: scan your badge");
  await scan("BADGE-alice");
  await shot("logged-in", "No work");

  // what central sends: an item, its stock, an order of 2
  await call("POST", "/api-gateway/mdm-service/wms-masterdata/item", {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "shirts",
    attributes: {
      weight: { value: 250, uom: { unit: "G" } },
      dimension: { length: 30, width: 20, height: 2, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: "TSHIRT" },
    barcodeList: [{ barcode: "4006381333931" }],
    description: "T-shirt, blue, size M",
  });
  await call("PUT", "/station/stock", { location: "S1", msu: "M1", product_sku: "TSHIRT", quantity: 10 });
  const filter = { filter_parameters: ["product_sku = 'TSHIRT'"] };
  await call("POST", "/api-gateway/sr-service/platform-srms/service-request", {
    externalServiceRequestId: "ORDER-1",
    type: "PICK",
    serviceRequests: [
      {
        externalServiceRequestId: "ORDER-1-1",
        type: "PICK_LINE",
        expectations: { containers: [{ products: [{ productQuantity: 2, productAttributes: filter }] }] },
      },
    ],
  });
  await shot("order-waits-for-rack", "Waiting for a rack");
  await scan("M1");
  await shot("rack-presented", "Scan an item from slot S1");
  await scan("4006381333931");
  await shot("bin-lit", /Put 2 × TSHIRT into bin 1/);
  await button("Confirm").click();
  await shot("picked", "Take bin 1 away and press its button");
  await button("Empty bin 1").click();
  await shot("bin-emptied", "No work");
  await scan("123");
  await shot("refused-scan");

  // the put: a supervisor switches the seat to Put; a tote of 3 staged into bin 2
  await switchTo("Put", "supervisor-pin");
  await call("POST", "/api-gateway/sr-service/platform-srms/service-request", {
    externalServiceRequestId: "TOTE-7",
    type: "PUT",
    attributes: { tote_id: "TOTE-7" },
    expectations: {
      containers: [
        { products: [{ productQuantity: 3, productAttributes: { pdfa_values: { product_sku: "TSHIRT" } } }] },
      ],
    },
  });
  await call("POST", "/api-gateway/integration-service/wms-integration/core/api/stage_put_expectation", {
    serviceRequestId: "TOTE-7",
    ppsId: "1",
    ppsBinId: "2",
  });
  await shot("put-staged", "Scan the tote");
  await scan("4006381333931");
  await shot("put-item", "Scan the slot for 1 × TSHIRT");
  await button("Key in quantity").click();
  await page.getByRole("dialog").getByRole("button", { name: "3", exact: true }).click();
  await shot("put-keyin");
  await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
  await scan("S1");
  await shot("put-slot", "Put 3 × TSHIRT into slot S1, then confirm");
  // the slot scanned by mistake is taken back with one tap
  await button("Undo last scan").click();
  await shot("put-undo", "Scan the slot for 3 × TSHIRT");
  await scan("S1");
  await page.getByRole("heading", { level: 1, name: "Put 3 × TSHIRT into slot S1, then confirm" }).waitFor();
  await button("Confirm").click();
  await shot("put-complete", "Tote in bin 2 is done: release it");
  await button("Release tote in bin 2").click();
  await shot("tote-released", "No work");

  // the audit: central creates and starts an audit of rack M1; a supervisor switches the seat to Audit
  await switchTo("Audit");
  const created = await call("POST", "/api-gateway/integration-service/wms-integration/core/api/audit", {
    action: "create",
    audit_creator_name: "manager",
    audit_param_name: "cycle count",
    audit_param_type: "location",
    audit_param_value: { locations_list: ["M1"] },
    kq: true,
  });
  auditId = created.audit_id;
  await call("POST", `/station/audits/${created.audit_id}/start`);
  await shot("audit-queued", `Audit ${created.audit_id} is waiting: begin it`);
  await page.getByRole("button", { name: /^Begin audit / }).click();
  await shot("audit-begun", "Count slot S1: scan the slot");
  await scan("S1");
  await shot("audit-count-slot", "Count slot S1: scan each item, then close the slot");
  await button("Close slot").click();
  await shot("audit-close-at-zero");
  await page.getByRole("dialog").getByRole("button", { name: "Back" }).click();
  await scan("4006381333931");
  await button("Key in quantity").click();
  for (const d of "11") await page.getByRole("dialog").getByRole("button", { name: d, exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
  await page.getByText("11", { exact: true }).first().waitFor();
  await shot("audit-counted");
  await button("Close slot").click();
  await shot("audit-closed", "No audit to count");

  // a rack of 16 lines: one order of 16 items, each in its own slot of rack M2
  await switchTo("Pick");
  const colours = ["blue", "red", "green", "black"];
  const lines = [];
  for (let i = 1; i <= 16; i++) {
    const n = String(i).padStart(2, "0");
    const colour = colours[i % colours.length];
    await item(
      `SOCK-${n}`,
      `40000000000${n}`,
      `Socks, ${colour}, size ${36 + (i % 8)}, pack of ${1 + (i % 3)}`,
    );
    await call("PUT", "/station/stock", {
      location: `B${n}`,
      msu: "M2",
      product_sku: `SOCK-${n}`,
      quantity: 10,
    });
    lines.push({
      externalServiceRequestId: `ORDER-2-${n}`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              {
                productQuantity: 1 + (i % 4),
                productAttributes: { filter_parameters: [`product_sku = 'SOCK-${n}'`] },
              },
            ],
          },
        ],
      },
    });
  }
  await call("POST", "/api-gateway/sr-service/platform-srms/service-request", {
    externalServiceRequestId: "ORDER-2",
    type: "PICK",
    serviceRequests: lines,
  });
  await scan("M2");
  await shot("rack-16-lines", /^Scan an item from slot B\d\d$/);
  const slot = (await page.getByRole("heading", { level: 1 }).innerText()).replace(/^.* /, "");
  await scan(`40000000000${slot.slice(1)}`);
  await shot("rack-16-bin-lit", /^Put \d × SOCK-\d\d into bin/);
  await button("Key in quantity").click();
  await page.getByRole("dialog").getByRole("button", { name: "1", exact: true }).click();
  await shot("rack-16-numpad");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await scan("123");
  await shot("rack-16-refused-scan");
} finally {
  await context.close();
  await agent.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}
