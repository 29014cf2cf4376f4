import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { topicLevel, topicsFor } from "../../../src/sync/topics.js";

describe("topics (docs/architecture.md#interfaces)", () => {
  const t = topicsFor("dc1", "7");

  it.each([
    ["connection", t.connection, "ppsedge/v1/dc1/7/connection"],
    ["notification", t.notification, "ppsedge/v1/dc1/7/notification"],
    ["station state", t.stationState, "ppsedge/v1/dc1/7/state/station"],
    ["request state", t.requestState("PICK", "ORD-1"), "ppsedge/v1/dc1/7/state/PICK/ORD-1"],
    ["request filter", t.requests, "ppsedge/v1/dc1/7/request/+"],
    ["response", t.response("upsert_item"), "ppsedge/v1/dc1/7/response/upsert_item"],
  ])("%s", (_name, topic, expected) => {
    expect(topic).toBe(expected);
  });

  it.each([
    ["ORD-1.a:b_c", "ORD-1.a:b_c"],
    ["a/b", "a%2Fb"],
    ["x+y#z", "x%2By%23z"],
    ["100%", "100%25"],
    ["é", "%C3%A9"],
  ])("an id is one topic level: %s → %s", (id, level) => {
    expect(topicLevel(id)).toBe(level);
    expect(decodeURIComponent(level)).toBe(id);
  });

  it.each([
    ["ppsedge/v1/dc1/7/request/upsert_item", "upsert_item"],
    ["ppsedge/v1/dc1/7/request/", undefined],
    ["ppsedge/v1/dc1/7/request/a/b", undefined],
    ["ppsedge/v1/dc1/8/request/upsert_item", undefined],
    ["ppsedge/v1/dc1/7/response/upsert_item", undefined],
  ])("request name of %s", (topic, name) => {
    expect(t.requestName(topic)).toBe(name);
  });
});

describe("mqtt configuration", () => {
  it("defaults: the embedded broker on 127.0.0.1:1883, keepalive 15 s, 64 in flight", () => {
    expect(parseConfig({}).mqtt).toMatchObject({
      url: "embedded",
      embeddedHost: "127.0.0.1",
      embeddedPort: 1883,
      keepaliveSeconds: 15,
      inflightWindow: 64,
      reconnectMinMs: 1000,
      reconnectMaxMs: 4000,
      reconnectFlappingMaxMs: 60_000,
    });
    expect(parseConfig({}).mqtt.clientId).toBeUndefined();
  });

  it("takes every key from PPS_EDGE_MQTT_* variables", () => {
    const c = parseConfig(
      {},
      {
        PPS_EDGE_MQTT_URL: "mqtts://broker.example:8883",
        PPS_EDGE_MQTT_USERNAME: "pps7",
        PPS_EDGE_MQTT_INFLIGHT_WINDOW: "16",
        PPS_EDGE_MQTT_PROTOCOL_VERSION: "4",
        PPS_EDGE_MQTT_OUTBOX_WARN_DEPTH: "500",
        PPS_EDGE_MQTT_FAILOVER_URLS: "mqtts://node2.example:8883, mqtts://node3.example:8883",
      },
    );
    expect(c.mqtt).toMatchObject({
      url: "mqtts://broker.example:8883",
      failoverUrls: ["mqtts://node2.example:8883", "mqtts://node3.example:8883"],
      username: "pps7",
      inflightWindow: 16,
      protocolVersion: 4,
      outboxWarnDepth: 500,
    });
  });

  it.each([
    [{ url: "http://x" }, "mqtt.url"],
    [{ url: "mqtt://" }, "mqtt.url"],
    [{ reconnectMinMs: 5000, reconnectMaxMs: 1000 }, "mqtt.reconnectMinMs"],
    [{ inflightWindow: 0 }, "mqtt.inflightWindow"],
    [{ protocolVersion: 3 }, "mqtt.protocolVersion"],
    [{ clientId: "a b" }, "mqtt.clientId"],
    [{ colour: "red" }, "mqtt"],
    [{ url: "mqtt://a:1883", failoverUrls: ["http://b"] }, "mqtt.failoverUrls.0"],
    [{ url: "embedded", failoverUrls: ["mqtt://b:1883"] }, "mqtt.failoverUrls"],
    [{ url: "off", failoverUrls: ["mqtt://b:1883"] }, "mqtt.failoverUrls"],
  ])("refuses %j naming %s", (mqtt, path) => {
    expect(() => parseConfig({ mqtt })).toThrow(path);
  });
});
