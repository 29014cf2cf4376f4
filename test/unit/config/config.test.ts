import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";

describe("config", () => {
  it("has the documented embedded defaults", () => {
    const c = parseConfig({});
    expect(c.http).toEqual({
      host: "127.0.0.1",
      port: 8080,
      bodyLimitBytes: 1048576,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 256,
      maxConnectionsPerAddress: 64,
      requestsInFlightPerConnection: 4,
      costlyRequestsPerSecond: 100,
      costlyBurst: 200,
      storedBytesPerSecond: 262_144,
      storedBurstBytes: 16_777_216,
      sendTimeoutMs: 10_000,
      answerBufferBytes: 33_554_432,
      tls: {},
    });
    expect(c.metrics).toEqual({ open: false });
    expect(c.mqtt.embeddedTls).toEqual({ port: 8883 });
    expect(c.dataDir).toBe("./data");
    expect(c.db.synchronous).toBe("FULL");
    expect(c.tokenTtlSeconds).toBe(3600);
    expect(c.clientSecret).toBeUndefined();
    expect(c.adminPassword).toBeUndefined();
  });

  it("takes every key from PPS_EDGE_ variables, over the file", () => {
    const c = parseConfig(
      { http: { port: 9000 }, site: "file-site" },
      {
        PPS_EDGE_HTTP_HOST: "0.0.0.0",
        PPS_EDGE_HTTP_PORT: "8181",
        PPS_EDGE_DATA_DIR: "/var/lib/pps-edge",
        PPS_EDGE_SITE: "dc7",
        PPS_EDGE_PPS_ID: "12",
        PPS_EDGE_CLIENT_ID: "wms",
        PPS_EDGE_CLIENT_SECRET: "a-long-client-secret",
        PPS_EDGE_ADMIN_USER: "root",
        PPS_EDGE_ADMIN_PASSWORD: "a-long-admin-password",
        PPS_EDGE_TOKEN_TTL_SECONDS: "120",
        PPS_EDGE_DB_SYNCHRONOUS: "EXTRA",
        PPS_EDGE_LOG_LEVEL: "debug",
        PPS_EDGE_CONFIG: "/ignored/here.yaml",
        OTHER: "ignored",
      },
    );
    expect(c.http.host).toBe("0.0.0.0");
    expect(c.http.port).toBe(8181);
    expect(c.dataDir).toBe("/var/lib/pps-edge");
    expect(c.site).toBe("dc7");
    expect(c.ppsId).toBe("12");
    expect(c.clientId).toBe("wms");
    expect(c.clientSecret).toBe("a-long-client-secret");
    expect(c.adminUser).toBe("root");
    expect(c.adminPassword).toBe("a-long-admin-password");
    expect(c.tokenTtlSeconds).toBe(120);
    expect(c.db.synchronous).toBe("EXTRA");
    expect(c.log.level).toBe("debug");
  });

  it("names the key and the reason when a value is invalid", () => {
    const f = failure(() => parseConfig({}, { PPS_EDGE_HTTP_PORT: "eighty" }));
    expect(f.paths).toEqual(["http.port"]);
    expect(f.message).toContain("http.port");
    expect(failure(() => parseConfig({ site: "dc 1" })).paths).toEqual(["site"]);
    expect(failure(() => parseConfig({ timeZone: "Mars/Olympus" })).paths).toEqual(["timeZone"]);
    expect(failure(() => parseConfig({ clientSecret: "short" })).paths).toEqual(["clientSecret"]);
    // Node refuses a headers timeout longer than the request's: named at load, not at listen
    const timeouts = { http: { headersTimeoutMs: 40_000, requestTimeoutMs: 30_000 } };
    expect(failure(() => parseConfig(timeouts)).paths).toEqual(["http.headersTimeoutMs"]);
  });

  it("refuses unknown keys and unknown PPS_EDGE_ variables", () => {
    expect(failure(() => parseConfig({ htp: {} })).message).toContain("htp");
    expect(failure(() => parseConfig({ http: { prot: 1 } })).message).toContain("prot");
    expect(failure(() => parseConfig({}, { PPS_EDGE_HTTP_PROT: "1" })).paths).toEqual(["PPS_EDGE_HTTP_PROT"]);
  });

  it("takes the request subscription's QoS as 1 or 0 (docs/mqtt.md#rabbitmq), from the file or the environment", () => {
    expect(parseConfig({}).mqtt.requestQos).toBe(1);
    expect(parseConfig({}, { PPS_EDGE_MQTT_REQUEST_QOS: "0" }).mqtt.requestQos).toBe(0);
    expect(failure(() => parseConfig({ mqtt: { requestQos: 2 } })).paths).toEqual(["mqtt.requestQos"]);
  });

  it("returns to an earlier broker node after 10 s by default; 0 turns it off (docs/mqtt.md#a-clustered-broker)", () => {
    expect(parseConfig({}).mqtt.failbackAfterMs).toBe(10_000);
    expect(parseConfig({}, { PPS_EDGE_MQTT_FAILBACK_AFTER_MS: "0" }).mqtt.failbackAfterMs).toBe(0);
    expect(failure(() => parseConfig({ mqtt: { failbackAfterMs: -1 } })).paths).toEqual([
      "mqtt.failbackAfterMs",
    ]);
  });

  it("refuses a broker address with a port out of range, naming the one at fault", () => {
    expect(failure(() => parseConfig({ mqtt: { url: "mqtt://node1:99999" } })).paths).toEqual(["mqtt.url"]);
    expect(
      failure(() =>
        parseConfig({
          mqtt: { url: "mqtt://node1:1883", failoverUrls: ["mqtt://node2:1883", "mqtt://node3:70000"] },
        }),
      ).paths,
    ).toEqual(["mqtt.failoverUrls.1"]);
  });
});

describe("webhooks.maxBodyBytes (docs/webhooks.md#body-size)", () => {
  it("is 0 (any body) by default, takes a limit of at least 1,024 bytes, and names itself otherwise", () => {
    expect(parseConfig({}).webhooks.maxBodyBytes).toBe(0);
    expect(parseConfig({ webhooks: { maxBodyBytes: 1024 } }).webhooks.maxBodyBytes).toBe(1024);
    for (const bad of [100, -1, 1.5, "1mb"]) {
      const f = failure(() => parseConfig({ webhooks: { maxBodyBytes: bad } }));
      expect([...new Set(f.paths)], String(bad)).toEqual(["webhooks.maxBodyBytes"]);
    }
  });
});
