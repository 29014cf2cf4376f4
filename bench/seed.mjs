// Seeds a data folder with N items through the real items service (one outer transaction, so
// seeding does not pay one fsync per item; the measured paths below do).
import pino from "pino";
import { createAgent } from "../dist/agent.js";
import { parseConfig } from "../dist/config/config.load.js";

export function itemBody(i, prefix = "SKU") {
  const sku = `${prefix}-${String(i).padStart(7, "0")}`;
  return {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "bench",
    attributes: {
      weight: { value: 100 + (i % 900), uom: { unit: "G" } },
      dimension: { length: 10, width: 20, height: 5, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku, fragile: i % 2 === 0, stackable_count: i % 7 },
    barcodeList: [{ barcode: `${prefix}BC${i}` }],
    description: `bench item ${i}`,
  };
}

export async function seedItems(dataDir, count) {
  const config = parseConfig({
    dataDir,
    clientId: "bench",
    clientSecret: "bench-client-secret",
    adminUser: "bench",
    adminPassword: "bench-password-123",
    log: { level: "silent" },
  });
  const agent = createAgent(config, { log: pino({ level: "silent" }) });
  await agent.start(false);
  const { items, unitOfWork } = agent.services;
  const t0 = performance.now();
  const batch = 5000;
  for (let start = 0; start < count; start += batch) {
    // one transaction per batch: each upsert joins it as a savepoint
    unitOfWork.run(() => {
      for (let i = start; i < Math.min(count, start + batch); i++) items.upsert(itemBody(i));
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  await agent.stop();
  return { count, seconds: Math.round(seconds * 10) / 10 };
}
