/**
 * A put's item counted at a seat when the agent stops (docs/station.md#after-a-restart): the next start
 * keeps what became of it for the seat's screen, until acknowledged.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import {
  ADMIN,
  ADMIN_PASSWORD,
  CLIENT_ID,
  CLIENT_SECRET,
  passwordGrant,
  TOKEN_PATH,
  tempDir,
} from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import type { Json } from "../../support/station.js";

function agentOn(dir: string) {
  const config = parseConfig({
    dataDir: dir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    adminUser: ADMIN,
    adminPassword: ADMIN_PASSWORD,
    log: { level: "silent" },
    mqtt: { url: "off" },
    station: { initialMode: "put" },
  });
  return createAgent(config, { log: pino({ level: "silent" }) });
}

type App = ReturnType<typeof agentOn>["app"];

/** A JSON call with the admin's bearer token, in process. */
async function caller(app: App) {
  const token = ((await (await app.request(TOKEN_PATH, passwordGrant())).json()) as { access_token: string })
    .access_token;
  return async (method: string, path: string, body?: unknown) =>
    (await (
      await app.request(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json()) as Json;
}

describe("lit work across a restart: a put", () => {
  it("the item counted from the tote, none put away: said at the next start, until acknowledged", async () => {
    const dir = tempDir();
    const a = agentOn(dir);
    await a.start(false);
    const s = a.services;
    s.items.upsert(itemBody("Q") as never);
    const call = await caller(a.app);
    const scan = (barcode: string) => call("POST", "/station/scans", { seat: "front", barcode });
    expect(await scan("BADGE-olga")).toMatchObject({ result: "done" });
    s.requests.create({
      externalServiceRequestId: "UQ",
      type: "PUT",
      attributes: { tote_id: "TOTE-Q" },
      expectations: {
        containers: [
          { products: [{ productQuantity: 2, productAttributes: { pdfa_values: { product_sku: "Q" } } }] },
        ],
      },
    } as never);
    s.operations.stagePut({ serviceRequestId: "UQ", ppsId: "1", ppsBinId: "2" } as never);
    await until("the put staged", () => s.repos.requests.find("PUT", "UQ")?.state === "staged", 5000);
    expect(await scan("BC-Q")).toMatchObject({ result: "done", did: "put_item" });
    expect(s.repos.screen.litWork()).toEqual([
      {
        seat: "front",
        work: expect.objectContaining({ kind: "put", order: "UQ", quantity: 1, pickedBefore: 0 }),
      },
    ]);
    await a.stop();

    const b = agentOn(dir);
    await b.start(false);
    expect(b.services.repos.screen.litWork()).toEqual([]);
    expect(b.services.repos.screen.lostWork()).toEqual([
      {
        seat: "front",
        work: expect.objectContaining({ kind: "put", order: "UQ", line: "Q", tote: "TOTE-Q", recorded: 0 }),
      },
    ]);
    const screen = await (await caller(b.app))("GET", "/station/seats/front/screen");
    expect(screen).toMatchObject({ step: "ready", restart: { recorded: 0, quantity: 1 } });
    expect(screen.restart.text).toEqual({
      key: "restart.recorded_put",
      params: { recorded: 0, quantity: 1, sku: "Q", tote: "TOTE-Q" },
    });
    expect(b.services.repos.screen.forgetLost("front")).toBe(true);
    expect(b.services.repos.screen.lostWork()).toEqual([]);
    await b.stop();
  });
});
