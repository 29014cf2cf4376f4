/**
 * The work a training station starts with (docs/station.md#training): items, stock on a rack at the
 * station, a few pick orders, a put staged in a bin and a location audit started, so a trainee can
 * practise picking, putting and counting. Each part goes through the same use cases and the same
 * input schemas as the interface's requests: a scenario the agent would refuse from central is
 * refused here too, naming the part at fault.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { auditCreateSchema } from "../domain/audit.schema.js";
import { AppError, isAppError } from "../domain/errors.js";
import { itemInputSchema } from "../domain/item.schema.js";
import { stagePutSchema } from "../domain/service-request.schema.js";
import { rackPresentedSchema, stockAdjustSchema } from "../domain/station.schema.js";
import type { Services } from "../services/services.js";
import { StartError } from "../start-error.js";

/** A scenario as written: bodies as the interface takes them; a staged put needs no `ppsId`. */
export const trainingScenarioSchema = z
  .object({
    mode: z.enum(["pick", "put", "audit"]).default("pick"),
    items: z.array(z.unknown()).default([]),
    stock: z.array(z.unknown()).default([]),
    requests: z.array(z.unknown()).default([]),
    stagedPuts: z.array(z.object({ serviceRequestId: z.string(), ppsBinId: z.string() })).default([]),
    audits: z.array(z.unknown()).default([]),
    racks: z.array(z.unknown()).default([]),
  })
  .strict();
export type TrainingScenario = z.input<typeof trainingScenarioSchema>;

const item = (sku: string, barcode: string, description: string) => ({
  schema: { unique: [["product_sku"]], type: "object" },
  clientCategoryId: "training",
  attributes: {
    weight: { value: 250, uom: { unit: "G" } },
    dimension: { length: 30, width: 20, height: 2, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: sku },
  barcodeList: [{ barcode }],
  description,
});

const pickLine = (id: string, sku: string, quantity: number) => ({
  externalServiceRequestId: id,
  type: "PICK_LINE",
  expectations: {
    containers: [
      {
        products: [
          { productQuantity: quantity, productAttributes: { filter_parameters: [`product_sku = '${sku}'`] } },
        ],
      },
    ],
  },
});

/**
 * The scenario a training station starts with unless `mode` asks for another first mode: three items on
 * rack TRAIN-M1, two orders, tote TRAIN-TOTE-1 staged in the station's last bin and slot TRAIN-S3 to count.
 */
export function defaultTrainingScenario(bins: readonly string[]): TrainingScenario {
  const putBin = bins[bins.length - 1] ?? "1";
  return {
    mode: "pick",
    items: [
      item("TRAIN-SHIRT", "TRAIN-100", "Training shirt, blue, M"),
      item("TRAIN-CAP", "TRAIN-200", "Training cap, red"),
      item("TRAIN-MUG", "TRAIN-300", "Training mug, white"),
    ],
    stock: [
      { location: "TRAIN-S1", msu: "TRAIN-M1", product_sku: "TRAIN-SHIRT", quantity: 20 },
      { location: "TRAIN-S2", msu: "TRAIN-M1", product_sku: "TRAIN-CAP", quantity: 10 },
      { location: "TRAIN-S3", msu: "TRAIN-M1", product_sku: "TRAIN-MUG", quantity: 6 },
    ],
    requests: [
      {
        externalServiceRequestId: "TRAIN-ORDER-1",
        type: "PICK",
        serviceRequests: [
          pickLine("TRAIN-ORDER-1-1", "TRAIN-SHIRT", 2),
          pickLine("TRAIN-ORDER-1-2", "TRAIN-CAP", 1),
        ],
      },
      {
        externalServiceRequestId: "TRAIN-ORDER-2",
        type: "PICK",
        serviceRequests: [pickLine("TRAIN-ORDER-2-1", "TRAIN-SHIRT", 1)],
      },
      {
        externalServiceRequestId: "TRAIN-PUT-1",
        type: "PUT",
        attributes: { tote_id: "TRAIN-TOTE-1" },
        expectations: {
          containers: [
            {
              products: [
                { productQuantity: 4, productAttributes: { pdfa_values: { product_sku: "TRAIN-SHIRT" } } },
              ],
            },
          ],
        },
      },
    ],
    stagedPuts: [{ serviceRequestId: "TRAIN-PUT-1", ppsBinId: putBin }],
    audits: [
      {
        action: "create",
        audit_param_name: "training count",
        audit_param_type: "location",
        audit_param_value: { locations_list: ["TRAIN-S3"] },
        kq: true,
        audit_creator_name: "training",
      },
    ],
    racks: [{ msu: "TRAIN-M1", locations: ["TRAIN-S1", "TRAIN-S2", "TRAIN-S3"] }],
  };
}

type Seeding = Pick<Services, "items" | "operations" | "requests" | "audits">;

/** The mode a training station starts in: the one asked for, else the scenario's. */
export const scenarioMode = (s: TrainingScenario, asked?: "pick" | "put" | "audit") =>
  asked ?? s.mode ?? "pick";

/** Runs one part; a refusal names the part (`stock[1]`) in front of its own fields. */
async function step(path: string, fn: () => unknown): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!isAppError(e)) throw e;
    throw new AppError(
      "invalid_request",
      `training scenario ${path}: ${e.message}`,
      e.errors.length > 0
        ? e.errors.map((x) => ({ ...x, path: `${path}.${x.path}` }))
        : [{ path, message: e.message }],
    );
  }
}

const parse = <T>(schema: z.ZodType<T>, body: unknown, path: string): T => {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new AppError(
    "invalid_request",
    `training scenario ${path} is not valid`,
    r.error.issues.map((i) => ({ path: [path, ...i.path].join("."), message: i.message })),
  );
};

/**
 * Seeds a new training database with the scenario, in the order the work needs: items, stock, the
 * orders and puts, the rack at the station, the staged puts, the audits (started; in audit mode the first
 * one begun). The mode is the new
 * database's own (`station.initialMode`): with the work there, the station would refuse a switch.
 */
export async function seedTraining(
  svc: Seeding,
  written: TrainingScenario,
  ppsId: string,
  mode: "pick" | "put" | "audit" = "pick",
  seat?: string,
): Promise<void> {
  const s = parse(trainingScenarioSchema, written, "scenario");
  for (const [i, body] of s.items.entries())
    await step(`items[${i}]`, () => svc.items.upsertAsync(parse(itemInputSchema, body, `items[${i}]`)));
  for (const [i, body] of s.stock.entries())
    await step(`stock[${i}]`, () => svc.operations.setStock(parse(stockAdjustSchema, body, `stock[${i}]`)));
  for (const [i, body] of s.requests.entries())
    await step(`requests[${i}]`, () => svc.requests.createAsync(body));
  for (const [i, body] of s.racks.entries())
    await step(`racks[${i}]`, () =>
      svc.operations.rackPresented(parse(rackPresentedSchema, body, `racks[${i}]`)),
    );
  for (const [i, body] of s.stagedPuts.entries())
    await step(`stagedPuts[${i}]`, () =>
      svc.operations.stagePut(parse(stagePutSchema, { ...body, ppsId }, `stagedPuts[${i}]`)),
    );
  // staging is evaluated on the next turn of the event loop: the puts are staged before the trainee comes
  if (s.stagedPuts.length > 0) await new Promise((done) => setImmediate(done));
  for (const [i, body] of s.audits.entries())
    await step(`audits[${i}]`, () => {
      const created = svc.audits.create(parse(auditCreateSchema, body, `audits[${i}]`));
      svc.audits.act(created.audit_id, "start");
      // in audit mode the first one is begun, as the dashboard would: the trainee counts at once
      if (mode === "audit" && i === 0 && seat !== undefined) {
        // begun under a trainer's login at the first seat, which then logs out again
        svc.operations.login(seat, "trainer");
        svc.audits.begin(created.audit_id, seat);
        svc.operations.logout(seat);
      }
    });
}

const KEY = "station.trainingScenario";

/** A scenario file (`station.trainingScenario`), read and checked at the start: a bad one stops it, naming the key. */
export function readTrainingScenario(file: string): TrainingScenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new StartError(
      `the training scenario ${file} cannot be read: ${why}`,
      KEY,
      "name a readable JSON file",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new StartError(`the training scenario ${file} is not JSON: ${why}`, KEY, "correct the file");
  }
  const r = trainingScenarioSchema.safeParse(json);
  if (!r.success) {
    const where = r.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`).join("; ");
    throw new StartError(
      `the training scenario ${file} is not a scenario: ${where}`,
      KEY,
      "see examples/training-scenario.json",
    );
  }
  return json as TrainingScenario;
}
