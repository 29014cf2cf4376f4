/**
 * The table "Status codes the spec does not show" of docs/decisions.md and the OpenAPI document agree: for every endpoint of the interface, the statuses the
 * document lists are exactly those the interface names (docs/interface.md, "Endpoints" and "Errors") plus
 * the table's rows that apply to it, and each such status carries exactly the codes the table gives.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RouteRegistry, type RouteSpec } from "../../../src/http/openapi.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { codes, doc as document, section, tableRows } from "../../support/readme.js";

const A = "/api-gateway/auth-service/platform-auth/oauth/token";
const M = "/api-gateway/mdm-service/wms-masterdata";
const SR = "/api-gateway/sr-service/platform-srms/service-request";
const C = "/api-gateway/integration-service/wms-integration/core/api";
const R = "/api-gateway/platform-dashboard/report";

/** The interface's endpoints and the statuses it names for each (every authenticated call also 401). */
const NAMED: Record<string, number[]> = {
  [`POST ${A}`]: [200, 401],
  [`GET ${M}/catalog`]: [200, 401],
  [`POST ${M}/catalog`]: [200, 400, 401],
  [`POST ${M}/item`]: [200, 401],
  [`POST ${M}/item/search_v2`]: [200, 401],
  [`POST ${C}/audit`]: [200, 400, 401],
  [`DELETE ${C}/audit/delete/{audit_id}`]: [200, 401, 404],
  [`POST ${SR}`]: [200, 400, 401],
  [`POST ${SR}/cancel`]: [200, 202, 400, 401],
  [`POST ${SR}/modify`]: [200, 202, 400, 401],
  [`POST ${C}/stage_put_expectation`]: [200, 401],
  [`POST ${R}/generate-inventory-report`]: [200, 401],
  [`POST ${C}/orders/print_ready/{externalServiceRequestId}`]: [200, 400, 401, 404],
};

/** The rows that name a kind of endpoint rather than one: which routes each applies to. */
const KINDS: Record<string, (r: RouteSpec) => boolean> = {
  "every endpoint": () => true,
  "every authenticated endpoint": (r) => r.auth,
  "every endpoint with a body": (r) => r.body !== undefined,
  "every endpoint with a JSON body": (r) => r.body !== undefined && !r.bodyType,
  "every endpoint that changes data": (r) => r.commits ?? r.method !== "get",
};

interface Row {
  operation: string;
  status: number;
  codes: string[];
}

function tableOfStatuses(): Row[] {
  const text = section("Status codes the spec does not show", document("docs/decisions.md"));
  return tableRows(text)
    .filter(([first]) => first !== "operation")
    .map(([operation = "", status = "", list = ""]) => ({
      operation: codes(operation)[0] ?? operation,
      status: Number(status),
      codes: codes(list),
    }));
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the JSON it is
type Json = Record<string, any>;
let t: TestAgent;
let doc: Json;
let specs: RouteSpec[];
const oaPath = (p: string) => p.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

beforeAll(async () => {
  const add = vi.spyOn(RouteRegistry.prototype, "add");
  t = await startTestAgent();
  specs = add.mock.calls.map(([spec]) => spec);
  add.mockRestore();
  doc = (await (await t.request("/openapi.json")).json()) as Json;
});
afterAll(async () => t.close());

describe('docs/decisions.md "Status codes the spec does not show"', () => {
  it("names only endpoints of the interface, or kinds of endpoint, and statuses the spec does not name there", () => {
    const rows = tableOfStatuses();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const known = row.operation in NAMED || row.operation in KINDS;
      expect([row.operation, known]).toEqual([row.operation, true]);
      expect([row.operation, NAMED[row.operation]?.includes(row.status) ?? false]).toEqual([
        row.operation,
        false,
      ]);
      expect(row.codes.length).toBeGreaterThan(0);
    }
  });

  it("lists, for every endpoint of the interface, each status the OpenAPI document gives beyond those the spec names, with the same codes", () => {
    const rows = tableOfStatuses();
    for (const [operation, named] of Object.entries(NAMED)) {
      const spec = specs.find((r) => `${r.method.toUpperCase()} ${oaPath(r.path)}` === operation);
      expect(spec, operation).toBeDefined();
      const route = spec as RouteSpec;
      const [method = "", path = ""] = operation.split(" ");
      const responses = doc.paths[path]?.[method.toLowerCase()]?.responses as Json;
      const applies = rows.filter((r) => r.operation === operation || KINDS[r.operation]?.(route));
      const expected = new Set([...named, ...applies.map((r) => r.status)]);
      expect([operation, Object.keys(responses).map(Number).sort()]).toEqual([
        operation,
        [...expected].sort(),
      ]);
      for (const status of expected) {
        if (named.includes(status)) continue;
        const fromTable = new Set(applies.filter((r) => r.status === status).flatMap((r) => r.codes));
        const inDocument = (responses[status]?.["x-error-codes"] ?? []) as string[];
        expect([operation, status, [...fromTable].sort()]).toEqual([
          operation,
          status,
          [...inDocument].sort(),
        ]);
      }
    }
  });
});
