/**
 * Items with bulky documents against an agent with a small heap (docs/limits.md#item-documents): a
 * search_v2 over fourteen items of ~967 KB of empty objects each (stored before a body's arrays and
 * objects were bounded, as an older agent took them) answers, and /healthz is served while it works;
 * such an item sent now is refused before it is parsed, naming the member.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { MAX_JSON_CONTAINERS } from "../../../src/domain/json-body.js";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";

const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const SEARCH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";
const ITEMS = 14;
/** ~967 KB of JSON: 322,000 empty objects, each some tens of bytes once parsed. */
const EMPTIES = 322_000;
/** A heap far smaller than the 256 MB the agent runs with: the fourteen items parsed would need more. */
const HEAP_MB = 96;

const bulky = (i: number) => ({
  schema: { unique: [["product_sku", "batch"]], type: "object" },
  attributes: {
    weight: { value: 1, uom: { unit: "G" } },
    dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: `BULK-${i}`, batch: "B-1" },
  barcodeList: [{ barcode: `BULK-BC-${i}` }],
  imageData: Array.from({ length: EMPTIES }, () => ({})),
});

let dataDir: string;
let agent: ChildAgent;

beforeAll(async () => {
  dataDir = tempDir();
  const seed = createAgent(
    parseConfig({
      dataDir,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      adminUser: ADMIN,
      adminPassword: ADMIN_PASSWORD,
      mqtt: { url: "off" },
    }),
    { log: pino({ level: "silent" }) },
  );
  await seed.start(false);
  for (let i = 0; i < ITEMS; i++) seed.services.items.upsert(bulky(i) as never);
  await seed.stop();
  agent = await startChildAgent(dataDir, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
}, deadline(60_000));

afterAll(async () => {
  if (agent && agent.proc.exitCode === null) await agent.stop();
});

const healthz = async (): Promise<number> => {
  const res = await fetch(`${agent.base}/healthz`, { signal: AbortSignal.timeout(deadline(10_000)) });
  await res.arrayBuffer();
  return res.status;
};

describe(`an agent with a ${HEAP_MB} MB heap and ${ITEMS} items of ~967 KB of empty objects`, () => {
  it("answers a search_v2 of them all, serving /healthz meanwhile, and keeps running", async () => {
    let searching = true;
    const search = agent
      .call("POST", SEARCH, { filter_params: [{ key: "batch", operator: "=", value: "B-1" }] })
      .then(async (res) => ({ status: res.status, body: await res.text() }))
      .finally(() => {
        searching = false;
      });
    const health: number[] = [];
    while (searching) {
      health.push(await healthz());
      await new Promise((r) => setTimeout(r, 50));
    }
    const { status, body } = await search;
    expect(status, body.slice(0, 300)).toBe(200);
    const found = JSON.parse(body) as Array<{
      productAttributes: { product_sku: string };
      imageData: unknown[];
    }>;
    expect(found.map((i) => i.productAttributes.product_sku)).toEqual(
      Array.from({ length: ITEMS }, (_, i) => `BULK-${i}`),
    );
    expect(found.every((i) => i.imageData.length === EMPTIES)).toBe(true);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((s) => s === 200)).toBe(true);
    expect(agent.proc.exitCode).toBeNull();
    expect(await healthz()).toBe(200);
  });

  it("refuses such an item sent now before parsing it, naming imageData, and keeps running", async () => {
    const res = await agent.call("POST", ITEM, bulky(ITEMS));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "imageData", message: expect.stringContaining(String(MAX_JSON_CONTAINERS)) }],
    });
    expect(await healthz()).toBe(200);
  });
});
