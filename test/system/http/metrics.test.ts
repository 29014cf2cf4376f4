/**
 * `/metrics` scraped over HTTP and read with a Prometheus text-format parser: the process and Node.js
 * metrics, the build info, and the latency histograms (HTTP by route template and status class, commit,
 * scan → light) exist with their types, and move when the agent works.
 */
import { readFileSync } from "node:fs";
import parsePrometheusTextFormat, { type PromFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../../src/version.js";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
let base: string;
beforeAll(async () => {
  t = await startTestAgent({}, { listen: true });
  base = `http://127.0.0.1:${t.agent.address?.port}`;
});
afterAll(async () => t.close());

interface Scrape {
  text: string;
  families: Map<string, PromFamily>;
}

async function scrape(at = base): Promise<Scrape> {
  const res = await fetch(`${at}/metrics`, SCRAPE);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await res.text();
  return { text, families: new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])) };
}

function family(m: Scrape, name: string, type: PromFamily["type"]): PromFamily {
  const f = m.families.get(name);
  expect(f, `${name} is exported`).toBeDefined();
  expect(f?.type, `${name} is a ${type}`).toBe(type);
  return f as PromFamily;
}

/**
 * The series of a histogram, checked to be one, by label set. The parser folds every series of a
 * labelled histogram into one and drops their labels (yunyu/parse-prometheus-text-format#13, open), so
 * the series are read from the same text with the family's TYPE line left out: its `_bucket`, `_sum` and
 * `_count` lines then parse as plain labelled samples.
 */
function histogram(m: Scrape, name: string) {
  family(m, name, "HISTOGRAM");
  const untyped = m.text.replace(`# TYPE ${name} histogram\n`, "");
  const samples = (suffix: string) =>
    parsePrometheusTextFormat(untyped)
      .filter((f) => f.name === `${name}${suffix}`)
      .flatMap((f) => f.metrics);
  return {
    buckets: samples("_bucket"),
    /** A series' count (0 when absent): the first series whose labels include `labels`. */
    count(labels: Record<string, string> = {}): number {
      const s = samples("_count").find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
      return Number(s?.value ?? 0);
    },
    routes: () => samples("_count").map((x) => x.labels?.route),
  };
}

const value = (f: PromFamily) => Number(f.metrics[0]?.value);

/** A pick lit by the simulated scanner (device event → engine → light), as an operator does it. */
async function scanThatLights(): Promise<void> {
  await seedItem(t, "A");
  await setStock(t, "S1", "M1", "A", 10);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
  await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 2)])));
  t.clock.now += 1000;
  await ok(t.call("POST", "/station/sim/scan", { seat: "front", barcode: "M1" }));
  t.clock.now += 1000;
  const lit = await ok(t.call("POST", "/station/sim/scan", { seat: "front", barcode: "BC-A" }));
  expect(lit.outcome).toMatchObject({ result: "done", did: "bin_lit" });
}

describe("/metrics in the Prometheus text format", () => {
  it("exports the process and Node.js metrics, and the build info", async () => {
    const m = await scrape();
    expect(value(family(m, "process_cpu_seconds_total", "COUNTER"))).toBeGreaterThan(0);
    expect(value(family(m, "process_resident_memory_bytes", "GAUGE"))).toBeGreaterThan(0);
    expect(value(family(m, "nodejs_heap_size_used_bytes", "GAUGE"))).toBeGreaterThan(0);
    family(m, "nodejs_eventloop_lag_seconds", "GAUGE");
    family(m, "nodejs_gc_duration_seconds", "HISTOGRAM");
    expect(value(family(m, "process_open_fds", "GAUGE"))).toBeGreaterThan(0);
    expect(family(m, "pps_edge_build_info", "GAUGE").metrics).toEqual([
      { value: "1", labels: { version: VERSION, node: process.version } },
    ]);
  });

  it("times HTTP requests by route template and status class, commits and scan → light", async () => {
    const before = await scrape();
    const unauth = await fetch(`${base}/station/state`);
    expect(unauth.status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await scanThatLights();
    // the light's write resolves after the scan's answer: wait for its observation
    const scanToLight = (m: Scrape) => histogram(m, "station_scan_to_light_seconds").count();
    let after = await scrape();
    await until("the scan's light observed", async () => {
      after = await scrape();
      return scanToLight(after) > 0;
    });

    const http = (m: Scrape) => histogram(m, "http_request_duration_seconds");
    const healthz = { route: "/healthz", method: "GET", status_class: "2xx" };
    expect(http(after).count(healthz) - http(before).count(healthz)).toBe(3);
    expect(http(after).count({ route: "/station/state", method: "GET", status_class: "4xx" })).toBe(1);
    // the route template, never the path: seat ids do not make new series
    expect(http(after).count({ route: "/station/seats/:seat/login", status_class: "2xx" })).toBe(1);
    expect(http(after).routes()).not.toContain("/station/seats/front/login");
    expect(http(after).buckets).toContainEqual({
      value: "3",
      labels: { ...healthz, le: "+Inf" },
    });

    const requests = family(after, "http_requests_total", "COUNTER").metrics;
    expect(requests).toContainEqual({
      value: "1",
      labels: { method: "GET", route: "/station/state", status: "401" },
    });

    const commits = (m: Scrape) => histogram(m, "db_commit_duration_seconds").count();
    expect(commits(after)).toBeGreaterThan(commits(before));
    expect(scanToLight(before)).toBe(0);
    expect(scanToLight(after)).toBe(1);
    const cpu = (m: Scrape) => value(family(m, "process_cpu_seconds_total", "COUNTER"));
    expect(cpu(after)).toBeGreaterThan(cpu(before));
  });

  it("exports what docs/operations.md lists, and the doc lists every metric of the agent", async () => {
    const doc = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## Metrics"));
    const listed = [...section.matchAll(/^\| `([a-z_]+)` \| (\w+) \|/gm)].map((r) => [r[1], r[2]]);
    expect(listed.length).toBeGreaterThan(20);
    const m = await scrape();
    for (const [name, type] of listed)
      family(m, name as string, (type as string).toUpperCase() as PromFamily["type"]);
    const own = [...m.families.keys()].filter((n) => !/^(process|nodejs)_/.test(n));
    expect(own.filter((n) => !listed.some(([name]) => name === n))).toEqual([]);
  });

  it("keeps each agent's metrics to itself; the process metrics are in both", async () => {
    const other = await startTestAgent({}, { listen: true });
    try {
      const m = await scrape(`http://127.0.0.1:${other.agent.address?.port}`);
      expect(histogram(m, "http_request_duration_seconds").routes()).not.toContain("/healthz");
      family(m, "process_cpu_seconds_total", "COUNTER");
    } finally {
      await other.close();
    }
  });
});
