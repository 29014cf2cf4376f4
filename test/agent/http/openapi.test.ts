/**
 * The API reference's document (/openapi.json): valid OpenAPI 3.0.3 by an independent validator, and
 * complete for every route the agent registers: its parameters, its body, its answers, every error
 * status with the stable codes of that status, and authentication.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { statusFor } from "../../../src/domain/error-body.js";
import { ERROR_CODES, type ErrorCode } from "../../../src/domain/errors.js";
import { RouteRegistry, type RouteSpec } from "../../../src/http/openapi.js";
import { BASIC, startTestAgent, type TestAgent } from "../../support/agent.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as the JSON it is
type Json = Record<string, any>;

let t: TestAgent;
let doc: Json;
/** Every spec the agent registered, as route.ts hands it to the registry. */
let specs: RouteSpec[];

const TOKEN = "/api-gateway/auth-service/platform-auth/oauth/token";
const oaPath = (p: string) => p.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
const opOf = (r: RouteSpec): Json => doc.paths[oaPath(r.path)]?.[r.method];

beforeAll(async () => {
  const add = vi.spyOn(RouteRegistry.prototype, "add");
  t = await startTestAgent();
  specs = add.mock.calls.map(([spec]) => spec);
  add.mockRestore();
  const res = await t.request("/openapi.json");
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(async () => t.close());

describe("/openapi.json", () => {
  it("is valid OpenAPI 3.0.3 (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator({ allErrors: true }).validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.0.3");
  });

  it("describes every route the agent serves, each operation once with its own id", () => {
    const served = t.agent.app.routes.filter((r) => r.method !== "ALL");
    expect(served.length).toBeGreaterThan(60);
    for (const r of served) {
      expect(doc.paths[oaPath(r.path)]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    }
    expect(specs.length).toBe(new Set(served.map((r) => `${r.method} ${r.path}`)).size);
    const ids = specs.map((r) => opOf(r).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("names each path parameter, each query parameter and the body of every route", () => {
    for (const r of specs) {
      const op = opOf(r);
      const where = `${r.method} ${r.path}`;
      const params = (op.parameters ?? []) as Json[];
      for (const [, name] of r.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
        const p = params.find((x) => x.in === "path" && x.name === name);
        expect(p, `${where}: path parameter ${name}`).toMatchObject({ required: true, schema: {} });
        expect(p?.description, `${where}: ${name} is described`).toBeTruthy();
      }
      for (const name of Object.keys(r.query?.shape ?? {})) {
        expect(
          params.find((x) => x.in === "query" && x.name === name),
          `${where}: ?${name}`,
        ).toBeDefined();
      }
      if (r.body) {
        const content = op.requestBody?.content?.[r.bodyType ?? "application/json"];
        expect(content?.schema, `${where}: body schema`).toBeDefined();
        expect(op.requestBody.required).toBe(!r.bodyOptional);
      } else expect(op.requestBody, `${where}: no body`).toBeUndefined();
    }
  });

  it("a report id is a positive integer, as the route checks it", () => {
    const op = doc.paths["/api-gateway/platform-dashboard/report/download/{id}"].get;
    expect(op.parameters[0]).toMatchObject({
      name: "id",
      in: "path",
      schema: { pattern: "^[1-9]\\d{0,15}$" },
    });
  });

  it("documents every success answer, with a schema unless the body is empty", () => {
    for (const r of specs) {
      const op = opOf(r);
      const ok = Object.keys(op.responses).filter((s) => Number(s) < 300);
      expect(ok.length, `${r.method} ${r.path}`).toBeGreaterThan(0);
      const first = op.responses[ok[0] as string];
      const emptyBody = r.path.endsWith("/stage_put_expectation");
      if (!emptyBody) expect(first.content, `${r.method} ${r.path}: answer schema`).toBeDefined();
    }
  });

  it("lists every error status an operation may answer, each with its stable codes", () => {
    const known = new Set<string>(ERROR_CODES);
    for (const r of specs) {
      const op = opOf(r);
      const where = `${r.method} ${r.path}`;
      if (r.auth || r.screenSession)
        expect(op.responses["401"]?.["x-error-codes"], where).toContain("unauthorized");
      if (r.body) {
        // every body may be too large; a pick may also ask for more work than a limit allows
        expect(op.responses["413"]?.["x-error-codes"], where).toContain("payload_too_large");
        expect(op.responses["415"]?.["x-error-codes"], where).toEqual(["unsupported_media_type"]);
      }
      if (r.body && !r.bodyType) expect(op.responses["400"]["x-error-codes"]).toContain("malformed_json");
      expect(op.responses["406"]?.["x-error-codes"], where).toEqual(["not_acceptable"]);
      for (const [status, res] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400 || !res["x-error-codes"]) continue;
        const codes = res["x-error-codes"] as ErrorCode[];
        expect(codes.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(known.has(code), `${where} ${status}: ${code}`).toBe(true);
          expect(statusFor(code), `${where}: ${code} answers ${status}`).toBe(Number(status));
        }
        const schema = res.content["application/json"].schema;
        expect(schema.allOf[0]).toEqual({ $ref: "#/components/schemas/Error" });
        expect(schema.allOf[1].properties.code.enum).toEqual(codes);
        for (const code of codes) expect(res.description).toContain(`\`${code}\``);
      }
    }
  });

  it("the examples are bodies the routes accept, and main spec endpoints have one", () => {
    for (const r of specs) {
      for (const [name, example] of Object.entries(r.examples ?? {})) {
        const parsed = r.body?.safeParse(example);
        expect(parsed?.success, `${r.method} ${r.path} example ${name}: ${parsed?.error?.message}`).toBe(
          true,
        );
      }
    }
    const withExample = (method: string, path: string) => {
      const media = Object.values(doc.paths[path][method].requestBody.content)[0] as Json;
      return media.example ?? media.examples;
    };
    for (const path of [
      TOKEN,
      "/api-gateway/mdm-service/wms-masterdata/catalog",
      "/api-gateway/mdm-service/wms-masterdata/item",
      "/api-gateway/mdm-service/wms-masterdata/item/search_v2",
      "/api-gateway/sr-service/platform-srms/service-request",
      "/api-gateway/sr-service/platform-srms/service-request/cancel",
      "/api-gateway/sr-service/platform-srms/service-request/modify",
      "/api-gateway/integration-service/wms-integration/core/api/stage_put_expectation",
      "/api-gateway/integration-service/wms-integration/core/api/audit",
    ]) {
      expect(withExample("post", path), path).toBeDefined();
    }
  });

  it("declares the password flow at the token endpoint and a bearer alternative on every authenticated call", () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.oauth2).toMatchObject({
      type: "oauth2",
      flows: {
        password: {
          tokenUrl: TOKEN,
          scopes: {
            integration: expect.any(String),
            operator: expect.any(String),
            admin: expect.any(String),
          },
        },
      },
    });
    expect(schemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths[TOKEN].post.security).toEqual([{ clientBasic: [] }]);
    // the oauth2 requirement lists the roles that may call it as scopes, admin always (docs/security.md#roles)
    for (const r of specs.filter((s) => s.auth)) {
      const roles = [...(r.roles ?? []).filter((x) => x !== "admin"), "admin"];
      expect(opOf(r).security, `${r.method} ${r.path}`).toEqual([{ oauth2: roles }, { bearer: [] }]);
      expect(opOf(r).description, `${r.method} ${r.path}`).toContain(`**Roles:** ${roles.join(", ")}.`);
    }
    for (const r of specs.filter((s) => !s.auth && !s.screenSession && !s.tokenEndpoint)) {
      expect(opOf(r).security, `${r.method} ${r.path}`).toBeUndefined();
    }
  });

  it("schemas are in 3.0 form: no const, no type lists, boolean exclusive bounds, nullable beside a type", () => {
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) for (const [i, n] of node.entries()) walk(n, `${path}/${i}`);
      if (!node || typeof node !== "object" || Array.isArray(node)) return;
      const o = node as Json;
      expect(o.const, path).toBeUndefined();
      expect(o.$schema, path).toBeUndefined();
      expect(Array.isArray(o.type), path).toBe(false);
      for (const k of ["exclusiveMinimum", "exclusiveMaximum"])
        if (k in o) expect(typeof o[k], path).toBe("boolean");
      if (o.nullable === true) expect(o.type ?? o.allOf ?? o.anyOf ?? o.oneOf, path).toBeDefined();
      for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
    };
    walk(doc, "#");
  });

  it("recursive schemas live in components.schemas, and every $ref resolves", () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"(definitions|\$defs)"/);
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      expect(doc.components.schemas[name as string], name).toBeDefined();
    }
    expect(doc.components.schemas.ItemLevel.properties.level.items).toEqual({
      $ref: "#/components/schemas/ItemLevel",
    });
  });
});

describe("the documented answers are what the agent answers", () => {
  const answerOf = (method: string, path: string) =>
    specs.find((r) => r.method === method && r.path === path)?.responses[200]?.schema;

  it.each([
    ["/station/state"],
    ["/station/engine"],
    ["/station/sim/lights"],
    ["/station/notifications"],
    ["/station/seats/:seat/screen"],
    ["/api-gateway/mdm-service/wms-masterdata/catalog"],
  ])("GET %s", async (path) => {
    const res = await t.call("GET", path.replace(":seat", "front"));
    expect(res.status).toBe(200);
    const parsed = answerOf("get", path)?.safeParse(await res.json());
    expect(parsed?.success, parsed?.error?.message).toBe(true);
  });

  it("the token", async () => {
    const res = await t.request(TOKEN, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=admin&password=admin-password-123",
    });
    const parsed = answerOf("post", TOKEN)?.safeParse(await res.json());
    expect(parsed?.success, parsed?.error?.message).toBe(true);
  });
});
