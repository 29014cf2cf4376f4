import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ERROR_CODES } from "../../../src/domain/errors.js";
import { parseJsonBody } from "../../../src/domain/json-body.js";
import { RouteRegistry } from "../../../src/http/openapi.js";
import type { RouteSpec } from "../../../src/http/route-spec.js";
import { requestOperations } from "../../../src/sync/request-operations.js";
import { REQUEST_NAMES, type RequestName } from "../../../src/sync/topics.js";
import { type TestAgent, testConfig } from "../agent.js";
import { deadline } from "../deadline.js";
import { agentOn, centralOn, ROOT } from "../sync/agent.js";
import type { Subscriber } from "../sync/subscriber.js";
import { refusedJsonBody } from "./bodies.js";
import { changedTables, digester, MQTT_EXCLUDED } from "./digest.js";
import { hostileValue } from "./hostile.js";
import { seedStation, settledDigest } from "./http-fuzz.js";
import { newStats, type RouteStats, replay, runs, seed, seedOf, selected, summary } from "./run.js";

/**
 * The HTTP endpoint behind each request kind: its body schema and examples are the request's
 * (request-operations.ts). null: the station's own request with no HTTP call; its operation's schema.
 */
const ENDPOINT: Record<RequestName, string | null> = {
  create_service_request: "post /api-gateway/sr-service/platform-srms/service-request",
  cancel_service_request: "post /api-gateway/sr-service/platform-srms/service-request/cancel",
  modify_service_request: "post /api-gateway/sr-service/platform-srms/service-request/modify",
  stage_put: "post /api-gateway/integration-service/wms-integration/core/api/stage_put_expectation",
  create_audit: "post /api-gateway/integration-service/wms-integration/core/api/audit",
  delete_audit: "delete /api-gateway/integration-service/wms-integration/core/api/audit/delete/:audit_id",
  upsert_item: "post /api-gateway/mdm-service/wms-masterdata/item",
  upsert_catalog: "post /api-gateway/mdm-service/wms-masterdata/catalog",
  generate_inventory_report: "post /api-gateway/platform-dashboard/report/generate-inventory-report",
  print_ready:
    "post /api-gateway/integration-service/wms-integration/core/api/orders/print_ready/:externalServiceRequestId",
  rack_presented: "post /station/racks",
  // read-only: the body is the query of GET /station/notifications, validated by the request's own schema
  replay_notifications: "get /station/notifications",
  backup: null,
  replay_dead_letters: "post /station/outbox/dead-letters/replay",
  // no body over HTTP either: GET /readyz and GET /station/state, which it sums up
  health_check: "get /readyz",
  // the seat's own requests name the seat in the body; over HTTP it is the path's (station.routes.ts)
  pause_seat: null,
  resume_seat: null,
  set_mode: "put /station/mode",
  send_message: null,
  sign_out: null,
  // no HTTP call: the productivity targets (docs/mqtt.md#session-summaries)
  set_productivity_targets: null,
};

/** The operations' schemas are all these tests read: the agent's own status is never asked for. */
const NO_STATUS = {
  status: () => {
    throw new Error("not asked in this test");
  },
};

/** A transaction as the agent reads it (requests.ts): 1–128 characters, or a safe integer. */
const validTransaction = (v: unknown) =>
  (typeof v === "string" && v.length >= 1 && v.length <= 128) ||
  (typeof v === "number" && Number.isSafeInteger(v));

const transaction = fc.oneof(
  { weight: 5, arbitrary: fc.oneof(fc.uuid(), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 })) },
  { weight: 1, arbitrary: fc.constantFrom("fuzz-reused", 7) },
  {
    weight: 3,
    arbitrary: fc.oneof(hostileValue, fc.constantFrom("", "t".repeat(129), 1.5, 2 ** 53, null, [], {})),
  },
);

/** A request payload the agent must refuse: a refused body under a transaction, or no usable envelope at all. */
function payloads(
  name: RequestName,
  spec: RouteSpec | undefined,
  t: TestAgent,
  limit: number,
): fc.Arbitrary<Payload> {
  const schema =
    spec?.body ??
    (requestOperations(t.agent.services, { dataDir: t.dir, now: Date.now, ...NO_STATUS })[name]
      ?.schema as NonNullable<RouteSpec["body"]>);
  const examples = Object.values(spec?.examples ?? {});
  if (name === "delete_audit") examples.push({ audit_id: "AUD-1" });
  if (name === "print_ready") examples.push({ externalServiceRequestId: "ORDER-1001" });
  // the agent takes `transaction` out before validating the rest (requests.ts), so judge the body without it
  const withoutTransaction = z.preprocess((v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const { transaction: _, ...rest } = v as Record<string, unknown>;
    return rest;
  }, schema);
  const body = refusedJsonBody(withoutTransaction, false, examples, limit, fc.constant("application/json"));
  const wrapped = fc.tuple(body, transaction, fc.boolean()).map(([b, txn, keep]): Payload => {
    if (!keep || b.bytes[0] !== 0x7b) return { bytes: b.bytes, family: b.family }; // not an object: as is
    const rest = b.bytes.subarray(1);
    const sep = rest.toString("utf8").trimStart().startsWith("}") ? "" : ",";
    const head = Buffer.from(`{"transaction":${JSON.stringify(txn) ?? "null"}${sep}`);
    return { bytes: Buffer.concat([head, rest]), family: b.family };
  });
  const empty = fc.constant<Payload>({ bytes: Buffer.alloc(0), family: "empty" });
  // A packet past the broker's size limit is not a request: the broker closes the connection on it
  // (test/system/sync/broker-packet-size.test.ts), and the client resends it on every reconnect.
  const packable = wrapped.filter((p) => p.bytes.length <= 2 * limit);
  return fc.oneof({ weight: 12, arbitrary: packable }, { weight: 1, arbitrary: empty });
}

interface Payload {
  bytes: Buffer;
  family: string;
}

/** The transaction the agent reads from a payload, if it reads one (requests.ts `read`). */
function transactionOf(bytes: Buffer, limit: number): string | number | null {
  if (bytes.length > limit) return null; // refused before it is read
  try {
    const v = parseJsonBody(bytes.toString("utf8"));
    const txn = (v as { transaction?: unknown } | null)?.transaction;
    return typeof v === "object" && v !== null && !Array.isArray(v) && validTransaction(txn)
      ? (txn as string | number)
      : null;
  } catch {
    return null;
  }
}

const show = (p: Payload) => `[${p.family}] ${JSON.stringify(p.bytes.subarray(0, 300).toString("utf8"))}`;

/** Every answer an error with a stable code (never internal_error) and the request's own transaction. */
function checkAnswer(text: string | undefined, p: Payload, stats: RouteStats, limit: number): void {
  if (text === undefined) throw new Error(`no answer to ${show(p)}`);
  const r = JSON.parse(text) as {
    transaction: unknown;
    status: string;
    error: { status: number; code: string } | null;
  };
  stats.count(r.error?.status ?? 200);
  if (r.status !== "error" || !r.error) throw new Error(`accepted: ${text.slice(0, 300)} for ${show(p)}`);
  if (
    r.error.code === "internal_error" ||
    !ERROR_CODES.includes(r.error.code as never) ||
    r.error.status >= 500
  )
    throw new Error(`${r.error.code}: ${text.slice(0, 300)} for ${show(p)}`);
  const expected = transactionOf(p.bytes, limit);
  if (expected !== null && r.transaction !== expected)
    throw new Error(`answered transaction ${JSON.stringify(r.transaction)} to ${show(p)}`);
}

/** Requests go out in batches (answers come back in order on one topic), each batch one property run. */
const BATCH = 25;

/**
 * One test file's share of the request kinds, each fuzzed with `FUZZ_RUNS` hostile payloads over the
 * embedded broker's socket, published as the central system (test/support/sync/agent.ts CENTRAL).
 */
export function describeMqttShard(index: number, count: number): void {
  let t: TestAgent;
  let central: Subscriber;
  let routes: RouteSpec[] = [];
  let digest: () => string;
  let limit = 0;
  beforeAll(async () => {
    const add = vi.spyOn(RouteRegistry.prototype, "add");
    t = await agentOn("embedded");
    routes = add.mock.calls.map(([spec]) => spec);
    add.mockRestore();
    central = await centralOn(t);
    await seedStation(t);
    digest = digester(t.agent.db.sqlite, MQTT_EXCLUDED);
    limit = testConfig(t.dir).http.bodyLimitBytes;
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  describe(`hostile MQTT requests, shard ${index + 1} of ${count}`, () => {
    it("every request kind the agent answers is fuzzed by one shard", () => {
      expect(Object.keys(ENDPOINT).sort()).toEqual([...REQUEST_NAMES].sort());
    });
    for (const name of REQUEST_NAMES.filter((_, i) => i % count === index)) {
      it.skipIf(!selected(name))(
        name,
        async () => {
          const spec = routes.find((r) => `${r.method} ${r.path}` === ENDPOINT[name]);
          if (ENDPOINT[name] !== null) expect(spec, ENDPOINT[name]).toBeDefined();
          const stats = await fuzzKind(
            name,
            fc.array(payloads(name, spec, t, limit), { minLength: BATCH, maxLength: BATCH }),
          );
          expect(stats.tried).toBeGreaterThanOrEqual(runs());
        },
        deadline(180_000),
      );
    }
  });

  async function fuzzKind(name: RequestName, batches: fc.Arbitrary<Payload[]>): Promise<RouteStats> {
    const stats = newStats(`request/${name}`);
    const topic = `${ROOT}/response/${name}`;
    // the seeding's notifications are being published meanwhile: the outbox marks them sent
    const expected = await settledDigest(digest, 200);
    const property = fc.asyncProperty(batches, async (batch) => {
      const before = central.on(topic).length;
      stats.tried += batch.length;
      await Promise.all(
        batch.map((p) => central.publish(`${ROOT}/request/${name}`, p.bytes as unknown as string)),
      );
      await central.waitFor(
        `${batch.length} answers on ${name}`,
        () => central.on(topic).length >= before + batch.length,
      );
      const answers = central.on(topic).slice(before);
      for (const [i, p] of batch.entries()) checkAnswer(answers[i]?.payload, p, stats, limit);
      if (!t.agent.sync.status().connected) throw new Error("the agent lost its connection to the broker");
      const now = digest();
      if (now !== expected)
        throw new Error(
          `${changedTables(expected, now).join(", ")} changed after refused requests:\n${batch.map(show).join("\n")}`,
        );
    });
    const numRuns = Math.ceil(runs() / BATCH);
    // no shrinking: a batch of 25 shrinks for minutes, and the failure names the payloads already
    const out = await fc.check(property, {
      numRuns,
      seed: seedOf(name),
      endOnFailure: true,
      ...replay(name),
    });
    console.log(summary(stats));
    if (out.failed) {
      const why = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
      throw new Error(
        `${name}: ${why.slice(0, 1500)}\nreplay: FUZZ_SEED=${seed()} FUZZ_PATH='${out.counterexamplePath}' FUZZ_ROUTE='${name}' npx vitest run fuzz/`,
      );
    }
    return stats;
  }
}
