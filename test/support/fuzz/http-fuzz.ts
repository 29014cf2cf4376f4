import fc from "fast-check";
import { vi } from "vitest";
import { ERROR_CODES } from "../../../src/domain/errors.js";
import { RouteRegistry } from "../../../src/http/openapi.js";
import type { RouteSpec } from "../../../src/http/route-spec.js";
import {
  AUDIT_EXAMPLES,
  CATALOG_EXAMPLE,
  ITEM_EXAMPLE,
  SERVICE_REQUEST_EXAMPLES,
} from "../../../src/http/routes/request-examples.js";
import { BASIC, startTestAgent, type TestAgent, testConfig } from "../agent.js";
import { deadline } from "../deadline.js";
import { changedTables, digester, HTTP_EXCLUDED } from "./digest.js";
import { type FuzzContext, type FuzzRequest, requestsFor, takesAnything } from "./requests.js";
import { newStats, type RouteStats, replay, runs, seed, seedOf, summary } from "./run.js";

export interface HttpFuzz {
  t: TestAgent;
  /** Every route the agent registered, in registration order (the registry, as the OpenAPI document). */
  routes: RouteSpec[];
  ctx: FuzzContext;
  digest(): string;
}

/** The station's data for routes to find: a catalog, an item, a pick and a put request, an audit. */
export async function seedStation(t: TestAgent): Promise<void> {
  const posts: Array<[string, unknown]> = [
    ["/api-gateway/mdm-service/wms-masterdata/catalog", CATALOG_EXAMPLE],
    ["/api-gateway/mdm-service/wms-masterdata/item", ITEM_EXAMPLE],
    ["/api-gateway/sr-service/platform-srms/service-request", SERVICE_REQUEST_EXAMPLES.pick],
    ["/api-gateway/sr-service/platform-srms/service-request", SERVICE_REQUEST_EXAMPLES.put],
    ["/api-gateway/integration-service/wms-integration/core/api/audit", AUDIT_EXAMPLES.location],
  ];
  for (const [path, body] of posts) {
    const res = await t.call("POST", path, body);
    if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
  }
}

/** Every short text or number stored anywhere: what a path parameter must avoid to name nothing. */
function storedValues(t: TestAgent): Set<string> {
  const sqlite = t.agent.db.sqlite;
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .pluck()
    .all() as string[];
  const out = new Set<string>();
  for (const name of tables)
    for (const row of sqlite.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][])
      for (const v of row)
        if ((typeof v === "string" && v.length <= 200) || typeof v === "number") {
          out.add(String(v));
          out.add(String(v).trim().toLowerCase());
        }
  return out;
}

/** Where the stored values a path parameter names live; a parameter not listed draws on every stored value. */
const STORED: Record<string, string> = {
  seat: "SELECT seat FROM seats",
  externalServiceRequestId: "SELECT external_id FROM service_requests",
  audit_id: "SELECT audit_id FROM audits",
  ppsBinId: "SELECT id FROM bins",
  msu: "SELECT msu FROM racks",
  id: "SELECT id FROM reports",
  lang: "SELECT 'en' UNION SELECT 'de'",
};

function storedFor(t: TestAgent, existing: Set<string>): (param: string) => string[] {
  return (param) => {
    const sql = STORED[param];
    if (!sql) return [...existing].slice(0, 50);
    return (t.agent.db.sqlite.prepare(sql).pluck().all() as unknown[]).map(String);
  };
}

/** A seeded agent on a real SQLite file, the route registry it built, and the database digest. */
export async function startHttpFuzz(listen = false): Promise<HttpFuzz> {
  const add = vi.spyOn(RouteRegistry.prototype, "add");
  // every hostile body must reach the route's own checks: the per-user rate of the costly routes
  // (docs/limits.md) would answer most of 1,000 in a row 429 first; it has a test of its own
  const t = await startTestAgent(
    {
      http: {
        host: "127.0.0.1",
        port: 0,
        costlyRequestsPerSecond: 100_000,
        costlyBurst: 100_000,
        storedBytesPerSecond: 2 ** 40,
        storedBurstBytes: 2 ** 40,
      },
    },
    { listen },
  );
  const routes = add.mock.calls.map(([spec]) => spec);
  add.mockRestore();
  await seedStation(t);
  const bearer = `Bearer ${await t.token()}`;
  const existing = storedValues(t);
  const ctx: FuzzContext = {
    bodyLimitBytes: testConfig(t.dir).http.bodyLimitBytes,
    existing,
    stored: storedFor(t, existing),
    authorization: (spec) => (spec.tokenEndpoint ? BASIC : bearer),
  };
  return { t, routes, ctx, digest: digester(t.agent.db.sqlite, HTTP_EXCLUDED) };
}

/** This file's share of the routes: every `count`-th from `index`, so the shards together cover all. */
export function shard(routes: RouteSpec[], index: number, count: number): RouteSpec[] {
  return routes.filter((_, i) => i % count === index);
}

const show = (req: FuzzRequest) =>
  `${req.method} ${req.url.slice(0, 160)} [${req.family}] ${JSON.stringify(req.headers).slice(0, 200)} ${
    req.body ? JSON.stringify(req.body.subarray(0, 200).toString("utf8")) : ""
  }`;

/** The answer's contract: never 5xx; an error is JSON with a stable code and its fields named. */
export async function checkAnswer(res: Response, req: FuzzRequest, stats: RouteStats): Promise<void> {
  stats.count(res.status);
  if (res.status < 400) {
    await res.body?.cancel(); // a 2xx or a redirect (a screen URL with its key answers 303)
    return;
  }
  const text = await res.text();
  // Node's HTTP parser refuses a request line or headers it cannot read (a backslash in the path, a URL
  // past 16 KiB) with a bare 400/431 and closes: the request never reached the agent (no request id)
  if (!res.headers.has("x-request-id") && (res.status === 400 || res.status === 431) && text === "") return;
  if (res.status >= 500) throw new Error(`${res.status} ${text.slice(0, 300)} to ${show(req)}`);
  let body: { status?: unknown; code?: unknown; message?: unknown; errors?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${res.status} answered with no JSON error body (${text.slice(0, 100)}) to ${show(req)}`);
  }
  const fields = Array.isArray(body.errors)
    ? (body.errors as Array<{ path?: unknown; message?: unknown }>)
    : [];
  const shaped =
    body.status === res.status &&
    ERROR_CODES.includes(body.code as never) &&
    typeof body.message === "string" &&
    Array.isArray(body.errors) &&
    fields.every((e) => typeof e.path === "string" && typeof e.message === "string") &&
    (res.status !== 400 || fields.length > 0);
  if (!shaped)
    throw new Error(`${res.status} error body out of shape: ${text.slice(0, 300)} to ${show(req)}`);
}

/** Sends one generated request in process (no socket), as Hono's app.request. */
export function sendInProcess(t: TestAgent, req: FuzzRequest): Promise<Response> {
  return Promise.resolve(
    t.agent.app.request(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body ? { body: new Uint8Array(req.body) } : {}),
    }),
  );
}

/**
 * The digest once the agent's work after an answer (a report being written, notifications being
 * published) is done: two equal reads `stepMs` apart.
 */
export async function settledDigest(digest: () => string, stepMs = 10): Promise<string> {
  let last = digest();
  for (let i = 0; i < 1000 / stepMs; i++) {
    await new Promise((r) => setTimeout(r, stepMs));
    const now = digest();
    if (now === last) return now;
    last = now;
  }
  throw new Error("the database kept changing for a second after the last request");
}

/** Waits (a deadline of 20 s) until no report is still being written: on a busy machine that takes a while. */
async function reportsFinished(f: HttpFuzz): Promise<void> {
  const pending = f.t.agent.db.sqlite
    .prepare("SELECT count(*) FROM reports WHERE status = 'requested'")
    .pluck();
  const end = Date.now() + deadline(20_000);
  while (Date.now() < end && (pending.get() as number) > 0) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Fuzzes one route: every answer checked, and the database digest compared after each request (a route
 * that takes any request on its path alone may change data when it answers 2xx, never when it refuses).
 */
export async function fuzzRoute(
  f: HttpFuzz,
  spec: RouteSpec,
  send: (req: FuzzRequest) => Promise<Response> = (req) => sendInProcess(f.t, req),
  numRuns = runs(),
): Promise<RouteStats> {
  const name = `${spec.method.toUpperCase()} ${spec.path}`;
  const stats = newStats(name);
  let expected = await settledDigest(f.digest, 25);
  // rows written on the agent's connection: when it did not move, the digest cannot have changed
  const writes = f.t.agent.db.sqlite.prepare("SELECT total_changes()").pluck();
  let seen = writes.get();
  const property = fc.asyncProperty(requestsFor(spec, f.ctx), async (req) => {
    stats.tried++;
    const res = await send(req);
    await checkAnswer(res, req, stats);
    if (writes.get() === seen) return;
    const now = f.digest();
    seen = writes.get();
    if (now === expected) return;
    if (takesAnything(spec) && res.status < 300) {
      // the report is written after the answer: wait for it to be finished, then for quiet
      await reportsFinished(f);
      expected = await settledDigest(f.digest, 25);
      seen = writes.get();
    } else
      throw new Error(
        `${changedTables(expected, now).join(", ")} changed after ${res.status} to ${show(req)}`,
      );
  });
  const out = await fc.check(property, { numRuns, seed: seedOf(name), ...replay(name) });
  // and the whole digest once more, for writes that went by another connection
  const after = await settledDigest(f.digest);
  if (!out.failed && after !== expected && !takesAnything(spec))
    throw new Error(`${name}: ${changedTables(expected, after).join(", ")} changed during the run`);
  console.log(summary(stats));
  if (out.failed) {
    const why = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(
      `${name}: ${why.slice(0, 1500)}\n${replayHint(name, out)}\n${(fc.defaultReportMessage(out) ?? "").slice(0, 3000)}`,
    );
  }
  return stats;
}

function replayHint(name: string, out: { counterexamplePath: string | null }): string {
  return `replay: FUZZ_SEED=${seed()} FUZZ_PATH='${out.counterexamplePath}' FUZZ_ROUTE='${name}' npx vitest run fuzz/`;
}
