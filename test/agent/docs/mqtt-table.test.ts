import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_NAMES } from "../../../src/sync/topics.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { codes, doc, section, tableRows } from "../../support/readme.js";

/** The station's own requests: no HTTP call stands behind them (their row says "none"). */
const STATION_ONLY = ["backup", "sign_out", "set_productivity_targets"];

const rows = tableRows(section("Requests and responses", doc("docs/mqtt.md")))
  .filter((cells) => /^(`POST|`PUT|`DELETE|`GET|none)/.test(cells[1] ?? ""))
  .map(([request = "", http = ""]) => ({
    request: codes(request)[0] ?? "",
    call: http.startsWith("none") ? "" : (codes(http)[0] ?? ""),
  }));

describe("docs/mqtt.md: the MQTT request table", () => {
  let t: TestAgent;
  let operations: string[];
  beforeAll(async () => {
    t = await startTestAgent();
    const doc = (await (await t.request("/openapi.json")).json()) as { paths: Record<string, object> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });
  afterAll(() => t.agent.stop());

  it("has one row for each request the agent accepts over MQTT", () => {
    expect(rows.map((r) => r.request).sort()).toEqual([...REQUEST_NAMES].sort());
  });

  it("names, for each request, an HTTP call the agent serves with that method", () => {
    for (const { request, call } of rows) {
      if (call === "") {
        expect([request, STATION_ONLY.includes(request)]).toEqual([request, true]);
        continue;
      }
      const [method, path = ""] = call.split(" ");
      // "…" stands for the spec's path prefix of that endpoint.
      const suffix = path.replace(/^…/, "");
      const served = operations.filter((op) => op.startsWith(`${method} `) && op.endsWith(suffix));
      expect([request, call, served.length]).toEqual([request, call, 1]);
    }
  });
});
