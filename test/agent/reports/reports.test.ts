import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import {
  ADMIN,
  ADMIN_PASSWORD,
  CLIENT_ID,
  CLIENT_SECRET,
  startTestAgent,
  type TestAgent,
} from "../../support/agent.js";
import { seedItem, seedStock } from "../../support/audits.js";

const PREFIX = "/api-gateway/platform-dashboard/report";
const BASE = "https://station-7.example:8443";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent({ http: { host: "127.0.0.1", port: 0, publicUrl: `${BASE}/` } });
  await seedItem(t, "SHIRT");
  await seedItem(t, "CAP", {
    schema: { unique: [["product_sku", "client_id"]], type: "object" },
    clientCategoryId: "caps",
    productAttributes: { product_sku: "CAP", client_id: "C1" },
  });
  await seedItem(t, 'PEN "fine", blue', {
    schema: { unique: [["product_sku"], ["ean"]], type: "object" },
    clientCategoryId: "pens",
    productAttributes: { product_sku: 'PEN "fine", blue', ean: "4006381333931" },
    barcodeList: [{ barcode: "BC-PEN" }],
  });
  await seedItem(t, "NO-STOCK");
  await seedStock(t, "S-1", "MSU-1", "SHIRT", 10);
  await seedStock(t, "S-2", "MSU-1", "SHIRT", 5);
  await seedStock(t, "S-2", "MSU-1", { product_sku: "CAP", client_id: "C1" }, 4);
  await seedStock(t, "S-3", "MSU-2", 'PEN "fine", blue', 7);
  await seedStock(t, "S-3", "MSU-2", "NO-STOCK", 0);
});
afterAll(async () => t.close());

type Note = {
  seq: number;
  notification: { notification_type: string; notification_data: Record<string, unknown> };
};
async function notesAfter(seq: number): Promise<Note[]> {
  const res = await t.call("GET", `/station/notifications?after=${seq}`);
  return ((await res.json()) as { notifications: Note[] }).notifications;
}
const lastSeq = async () =>
  ((await (await t.call("GET", "/station/notifications?limit=1")).json()) as { lastSeq: number }).lastSeq;

const EXPECTED_CSV =
  "product_sku,client_id,ean,quantity\r\n" +
  "SHIRT,,,15\r\n" +
  "CAP,C1,,4\r\n" +
  '"PEN ""fine"", blue",,4006381333931,7\r\n';

describe("inventory report", () => {
  let id: number;
  let url: string;

  it("answers {id} at once; the job then writes the CSV and emits report_generation", async () => {
    const seq = await lastSeq();
    const res = await t.call("POST", `${PREFIX}/generate-inventory-report`);
    expect(res.status).toBe(200);
    id = ((await res.json()) as { id: number }).id;
    expect(id).toBeTypeOf("number");
    expect(t.agent.services.repos.reports.get(id)?.status).toBe("requested");
    expect(await notesAfter(seq)).toEqual([]);

    await t.agent.services.reports.idle();
    const notes = await notesAfter(seq);
    expect(notes.map((n) => n.notification.notification_type)).toEqual(["report_generation"]);
    url = `${BASE}${PREFIX}/download/${id}`;
    expect(notes[0]?.notification.notification_data).toEqual({
      id,
      type: "inventory/GR",
      report_url: url,
      requested_time: "2026-11-21T10:00:00.000Z",
      generated_time: "2026-11-21T10:00:00.000Z",
    });
    expect(readFileSync(join(t.dir, "reports", `inventory-${id}.csv`), "utf8")).toBe(EXPECTED_CSV);
  });

  it("the report_url serves the CSV (authenticated, text/csv)", async () => {
    const res = await t.call("GET", url.slice(BASE.length));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="inventory-${id}.csv"`);
    expect(await res.text()).toBe(EXPECTED_CSV);
  });

  it("download: 401 without a token, 404 unknown id, 400 a non-integer id, 409 not generated yet", async () => {
    const noToken = await t.request(`${PREFIX}/download/${id}`);
    expect(noToken.status).toBe(401);
    const codes = async (path: string) => {
      const res = await t.call("GET", path);
      return [res.status, ((await res.json()) as { code: string }).code];
    };
    expect(await codes(`${PREFIX}/download/999`)).toEqual([404, "not_found"]);
    expect(await codes(`${PREFIX}/download/abc`)).toEqual([400, "validation_failed"]);
    const waiting = t.agent.services.repos.reports.insert("inventory/GR", t.clock.now);
    expect(await codes(`${PREFIX}/download/${waiting}`)).toEqual([409, "invalid_state"]);
    t.agent.services.repos.reports.markFailed(waiting);
  });

  it("generate needs a token: 401, nothing requested", async () => {
    const before = await lastSeq();
    const res = await t.request(`${PREFIX}/generate-inventory-report`, { method: "POST" });
    expect(res.status).toBe(401);
    await t.agent.services.reports.idle();
    expect(await lastSeq()).toBe(before);
  });

  it("a job that cannot write its file marks the report failed, emits nothing, and the agent keeps serving", async () => {
    const dir = join(t.dir, "reports");
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a folder");
    const seq = await lastSeq();
    const res = await t.call("POST", `${PREFIX}/generate-inventory-report`);
    const failed = ((await res.json()) as { id: number }).id;
    await t.agent.services.reports.idle();
    expect(t.agent.services.repos.reports.get(failed)?.status).toBe("failed");
    expect(await notesAfter(seq)).toEqual([]);
    rmSync(dir);
    mkdirSync(dir);
    expect((await t.call("GET", `${PREFIX}/download/${failed}`)).status).toBe(409);
    expect((await t.call("GET", "/station/notifications")).status).toBe(200);
  });
});

describe("a restart finishes reports left requested", () => {
  it("generates the report on the next start, with its original requested_time", async () => {
    const first = await startTestAgent();
    const { dir } = first;
    const id = first.agent.services.unitOfWork.run((tx) =>
      first.agent.services.repos.reports.insert("inventory/GR", tx.now),
    );
    await first.agent.stop();

    const config = parseConfig({
      dataDir: dir,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      adminUser: ADMIN,
      adminPassword: ADMIN_PASSWORD,
      http: { host: "127.0.0.1", port: 0 },
      log: { level: "silent" },
    });
    const later = Date.parse("2026-11-22T08:00:00.000Z");
    const again = createAgent(config, { log: pino({ level: "silent" }), now: () => later });
    await again.start(false);
    try {
      await again.services.reports.idle();
      expect(again.services.repos.reports.get(id)?.status).toBe("generated");
      const [row] = again.services.repos.outbox.after(0, 10);
      expect(JSON.parse(row?.envelope ?? "{}").notification_data).toEqual({
        id,
        type: "inventory/GR",
        report_url: `http://127.0.0.1:0${PREFIX}/download/${id}`,
        requested_time: "2026-11-21T10:00:00.000Z",
        generated_time: "2026-11-22T08:00:00.000Z",
      });
      expect(existsSync(join(dir, "reports", `inventory-${id}.csv`))).toBe(true);
    } finally {
      await again.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("OpenAPI", () => {
  it("documents the audit and report endpoints", async () => {
    const doc = (await (await t.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const core = "/api-gateway/integration-service/wms-integration/core/api";
    expect(doc.paths[`${core}/audit`]).toHaveProperty("post.requestBody");
    expect(doc.paths[`${core}/audit/delete/{audit_id}`]).toHaveProperty("delete");
    for (const action of [
      "start",
      "begin",
      "count",
      "approve",
      "reject",
      "reaudit",
      "cancel",
      "pause",
      "resume",
    ]) {
      expect(doc.paths[`/station/audits/{audit_id}/${action}`]).toHaveProperty("post");
    }
    expect(doc.paths["/station/audits/{audit_id}"]).toHaveProperty("get");
    expect(doc.paths[`${PREFIX}/generate-inventory-report`]).toHaveProperty("post");
    expect(doc.paths[`${PREFIX}/download/{id}`]).toHaveProperty("get");
  });
});
