/**
 * Conformance: "What the service does" → General rules (body format, Authorization header, Content-Type
 * and Accept, timestamps) and Path groups, with Versioning rule 3 (no version segment, `search_v2`).
 * Header-level calls go over the agent's listening socket with `fetch`, as an integrator's client sends
 * them; the state after each refusal is read back to show nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC, passwordGrant, TOKEN_PATH } from "../support/agent.js";
import {
  ITEM,
  type Json,
  ok,
  pickBody,
  pickLine,
  putBody,
  SR,
  seedItem,
  setStock,
} from "../support/station.js";
import { committed } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import {
  AUDIT,
  AUDIT_BODY,
  CATALOG,
  PREFIX,
  SEARCH,
  type SpecEndpoint,
  specEndpoints,
} from "./support/endpoints.js";

let c: Central;
let base: string;
let endpoints: SpecEndpoint[];
let auditId: string;

beforeAll(async () => {
  c = await startCentral();
  base = `http://127.0.0.1:${c.t.agent.address?.port}`;
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await ok(c.t.call("POST", SR, pickBody("ORDER-G", [pickLine("ORDER-G-1", "SHIRT", 1)])));
  await ok(c.t.call("POST", SR, putBody("PUT-G", [["SHIRT", 2]])));
  auditId = (await ok(c.t.call("POST", AUDIT, AUDIT_BODY))).audit_id as string;
  endpoints = specEndpoints({ order: "ORDER-G", put: "PUT-G", audit: auditId });
});
afterAll(async () => c?.close());

/** One call over the socket: `body` as JSON text unless `raw` gives the text and its type. */
function send(e: SpecEndpoint, headers: Record<string, string>, raw?: { type: string; text: string }) {
  const json = e.body === undefined ? undefined : JSON.stringify(e.body);
  const type = raw?.type ?? (json === undefined ? undefined : "application/json");
  return fetch(`${base}${e.path}`, {
    method: e.method,
    headers: { ...(type ? { "Content-Type": type } : {}), ...headers },
    body: raw?.text ?? json,
  });
}

const bearer = async () => ({ Authorization: `Bearer ${await c.t.token()}` });

/** What a refused call must leave as it was: the outbox, the catalogs, the requests, the audits. */
async function snapshot(): Promise<unknown> {
  const auth = await bearer();
  const read = async (path: string, init: RequestInit = {}) =>
    (await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers } })).text();
  return {
    outbox: committed(c.t).length,
    catalogs: await read(CATALOG),
    item: await read(SEARCH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ filter_params: [{ key: "product_sku", operator: "=", value: "GENERAL-1" }] }),
    }),
    order: await read(`${SR}/ORDER-G?type=PICK`),
    put: await read(`${SR}/PUT-G?type=PUT`),
    audit: await read(`/station/audits/${auditId}`),
  };
}

/** Each endpoint answers `status` with `code` to a call with `headers` (read at each call). */
async function refusedByEach(
  headers: () => Promise<Record<string, string>> | Record<string, string>,
  status: number,
  code: string,
) {
  for (const e of endpoints) {
    const res = await send(e, await headers());
    const body = (await res.json()) as Json;
    expect([e.name, res.status, body.code]).toEqual([e.name, status, code]);
  }
}

async function expectEach(
  headers: () => Promise<Record<string, string>> | Record<string, string>,
  status: number,
  code: string,
): Promise<void> {
  const before = await snapshot();
  await refusedByEach(headers, status, code);
  expect(await snapshot()).toEqual(before);
}

describe("Authorization header", () => {
  it("General: Authorization header | Bearer on every call except the token endpoint → no Authorization: 401 on every endpoint, nothing changed", async () => {
    await expectEach(() => ({}), 401, "unauthorized");
  });

  it("General: Authorization header | Bearer on every call → a malformed header (no scheme, empty bearer): 401, nothing changed", async () => {
    await expectEach(() => ({ Authorization: "not-a-bearer" }), 401, "unauthorized");
    await expectEach(() => ({ Authorization: "Bearer " }), 401, "unauthorized");
  });

  it("General: Authorization header | Bearer on every call → Basic (even the client credential): 401, nothing changed", async () => {
    await expectEach(() => ({ Authorization: BASIC }), 401, "unauthorized");
  });

  it("General: Authorization header | Bearer on every call → an unknown bearer: 401 with WWW-Authenticate: Bearer, nothing changed", async () => {
    await expectEach(
      () => ({ Authorization: "Bearer 0123456789abcdef0123456789abcdef" }),
      401,
      "unauthorized",
    );
    const res = await fetch(`${base}${CATALOG}`, { headers: { Authorization: "Bearer unknown-token-000" } });
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("General: Authorization header | Bearer on every call → an expired bearer (clock past expires_in): 401, nothing changed", async () => {
    const grant = await ok(c.t.request(TOKEN_PATH, passwordGrant()));
    const before = await snapshot();
    const start = c.t.clock.now;
    c.t.clock.now += ((grant.expires_in as number) + 1) * 1000;
    try {
      await refusedByEach(() => ({ Authorization: `Bearer ${grant.access_token}` }), 401, "unauthorized");
    } finally {
      c.t.clock.now = start;
    }
    expect(await snapshot()).toEqual(before);
  });

  it("General: the token endpoint takes no bearer: it answers without one (Basic client credential only)", async () => {
    const res = await fetch(`${base}${TOKEN_PATH}`, passwordGrant());
    expect(res.status).toBe(200);
  });
});

describe("Body format, Content-Type and Accept", () => {
  const withBody = () => endpoints.filter((e) => e.body !== undefined);

  it("General: Body format | JSON (application/json) → a JSON endpoint sent text/plain or a form: 415 unsupported_media_type naming Content-Type, nothing changed (decision)", async () => {
    const before = await snapshot();
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      for (const e of withBody()) {
        const res = await send(e, await bearer(), { type, text: JSON.stringify(e.body) });
        const body = (await res.json()) as Json;
        expect([e.name, type, res.status, body.code]).toEqual([e.name, type, 415, "unsupported_media_type"]);
        expect(body.errors[0].path).toBe("Content-Type");
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("General: Body format | JSON → a JSON content type with a charset or a +json suffix is JSON", async () => {
    const search = endpoints.find((e) => e.path === SEARCH) as SpecEndpoint;
    for (const type of ["application/json; charset=utf-8", "application/vnd.pps+json"]) {
      const res = await send(search, await bearer(), { type, text: JSON.stringify(search.body) });
      expect([type, res.status]).toEqual([type, 200]);
    }
  });

  it("General: Content-Type and Accept | The response content type follows Accept → application/json, */*, application/* or none: JSON", async () => {
    for (const accept of [
      "application/json",
      "*/*",
      "application/*",
      "text/html, application/json;q=0.5",
      "",
    ]) {
      const res = await fetch(`${base}${CATALOG}`, { headers: { ...(await bearer()), Accept: accept } });
      expect([accept, res.status, res.headers.get("content-type")]).toEqual([
        accept,
        200,
        expect.stringMatching(/^application\/json/),
      ]);
    }
  });

  it("General: Content-Type and Accept | The response content type follows Accept → an Accept the agent cannot produce (application/xml): 406 not_acceptable, as JSON, nothing changed (decision)", async () => {
    await expectEach(async () => ({ ...(await bearer()), Accept: "application/xml" }), 406, "not_acceptable");
    const res = await fetch(`${base}${CATALOG}`, {
      headers: { ...(await bearer()), Accept: "application/xml" },
    });
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("Timestamps", () => {
  it("General: Timestamps | ISO 8601 strings → the agent's own carry Z (decision: UTC with milliseconds)", async () => {
    const order = await ok(c.t.call("GET", `${SR}/ORDER-G?type=PICK`));
    for (const key of ["receivedOn", "createdOn", "updatedOn"]) {
      expect([key, order[key]]).toEqual([
        key,
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ]);
    }
  });

  it("General: Timestamps | some carry a zone offset or Z; some carry none → a create with both forms is taken", async () => {
    const later = pickBody("ORDER-T", [pickLine("ORDER-T-1", "SHIRT", 1)], {
      pick_after_time: "2026-11-21T12:00:00+01:00",
      pick_before_time: "2026-11-22T18:00:00",
    });
    const res = await ok(c.t.call("POST", SR, later));
    expect(res.attributes).toMatchObject({
      pick_after_time: "2026-11-21T12:00:00+01:00",
      pick_before_time: "2026-11-22T18:00:00",
    });
  });
});

describe("Path groups", () => {
  it("Path groups: each prefix serves its group (token, catalog and items, service requests, audits/staging/print-ready, reports)", async () => {
    const token = await fetch(`${base}${PREFIX.token}/oauth/token`, passwordGrant());
    expect(token.status).toBe(200);
    expect((await c.t.call("GET", `${PREFIX.masterdata}/catalog`)).status).toBe(200);
    expect((await c.t.call("GET", `${PREFIX.requests}/service-request/ORDER-G?type=PICK`)).status).toBe(200);
    expect((await c.t.call("POST", `${PREFIX.integration}/audit`, AUDIT_BODY)).status).toBe(200);
    expect((await c.t.call("POST", `${PREFIX.report}/generate-inventory-report`)).status).toBe(200);
    await c.t.agent.services.reports.idle();
  });

  it("Versioning: Paths carry no version segment; the item search path carries the suffix _v2", async () => {
    const paths = [...endpoints.map((e) => e.path), TOKEN_PATH];
    for (const p of paths) expect([p, /\/v\d+(\/|$)/.test(p)]).toEqual([p, false]);
    expect(SEARCH).toBe(`${ITEM}/search_v2`);
    expect((await c.t.call("POST", `${ITEM}/search`, { filter_params: [] })).status).toBe(404);
    expect((await c.t.call("POST", `${PREFIX.masterdata}/v2/item/search_v2`, {})).status).toBe(404);
  });
});
