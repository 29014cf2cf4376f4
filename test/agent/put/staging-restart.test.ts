import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { requestStaging } from "../../../src/services/put/put.service.js";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";

function agentOn(dir: string) {
  const config = parseConfig({
    dataDir: dir,
    ppsId: "7",
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    adminUser: ADMIN,
    adminPassword: ADMIN_PASSWORD,
    log: { level: "silent" },
    mqtt: { url: "off" },
    station: { initialMode: "put", stagingWithLogout: true },
  });
  return createAgent(config, { log: pino({ level: "silent" }) });
}

describe("put staging: stage_requested is a state of its own", () => {
  it("is stored before the conditions are checked, and a request left there is staged at the next start", async () => {
    const dir = tempDir();
    const a = agentOn(dir);
    await a.start(false);
    const s = a.services;
    s.items.upsert(itemBody("Q") as never);
    s.requests.create({
      externalServiceRequestId: "UQ",
      type: "PUT",
      expectations: {
        containers: [
          { products: [{ productQuantity: 1, productAttributes: { pdfa_values: { product_sku: "Q" } } }] },
        ],
      },
    });
    // the stage call's transaction alone, as if the agent stopped before checking the conditions
    const ctx = { requests: s.repos.requests, items: s.repos.items, station: s.repos.station, ppsId: "7" };
    s.unitOfWork.run((tx) => requestStaging(ctx, { serviceRequestId: "UQ", ppsId: "7", ppsBinId: "2" }, tx));
    expect(s.repos.requests.find("PUT", "UQ")?.state).toBe("stage_requested");
    const seq = s.repos.outbox.lastSeq();
    await a.stop();

    const b = agentOn(dir);
    await b.start(false);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    const row = b.services.repos.requests.find("PUT", "UQ");
    expect(row?.state).toBe("staged");
    expect(row?.binId).toBe("2");
    const staged = b.services.repos.outbox.after(seq, 10).map((r) => JSON.parse(r.envelope));
    expect(staged.map((e) => [e.notification_type, e.notification_data.state])).toEqual([
      ["put_information", "staged"],
    ]);
    await b.stop();
  });
});
