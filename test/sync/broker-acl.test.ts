import { describe, expect, it } from "vitest";
import { brokerAcl, filtersOverlap, topicMatches } from "../../src/sync/broker-acl.js";

const ROOT = "ppsedge/v1/dc1/7";
const acl = brokerAcl(ROOT);
const central = { kind: "user", username: "admin" } as const;
const agent = { kind: "agent" } as const;

describe("the embedded broker's ACL", () => {
  it("matches topics and overlaps filters as MQTT 3.1.1 §4.7 does", () => {
    expect(topicMatches(`${ROOT}/state/#`, `${ROOT}/state/PICK/P1`)).toBe(true);
    expect(topicMatches(`${ROOT}/+`, `${ROOT}/state/station`)).toBe(false);
    expect(topicMatches("#", "$SYS/broker/heartbeat")).toBe(false);
    expect(filtersOverlap(`${ROOT}/+/station`, `${ROOT}/state/#`)).toBe(true);
    expect(filtersOverlap(`${ROOT}/request/#`, `${ROOT}/response/#`)).toBe(false);
  });

  it("lets central publish requests only, not retained, and read the station's own topics", () => {
    expect(acl.mayPublish(central, `${ROOT}/request/create_service_request`, false)).toBe(true);
    expect(acl.mayPublish(central, `${ROOT}/request/create_service_request`, true)).toBe(false);
    for (const t of ["notification", "connection", "state/station", "response/x"])
      expect([t, acl.mayPublish(central, `${ROOT}/${t}`, false)]).toEqual([t, false]);
    expect(acl.mayPublish(central, "ppsedge/v1/dc1/8/request/x", false)).toBe(false);
    expect(acl.maySubscribe(central, `${ROOT}/#`)).toBe(true);
    for (const f of ["#", "$SYS/#", "ppsedge/#", "ppsedge/v1/+/7/#", `${ROOT}/request/#`])
      expect([f, acl.maySubscribe(central, f)]).toEqual([f, false]);
    expect(acl.mayReceive(central, `${ROOT}/request/x`)).toBe(false);
    expect(acl.mayReceive(central, `${ROOT}/state/PICK/P1`)).toBe(true);
  });

  it("lets the agent publish in its branch, retained too", () => {
    expect(acl.mayPublish(agent, `${ROOT}/connection`, true)).toBe(true);
    expect(acl.mayPublish(agent, "ppsedge/v1/dc1/8/connection", true)).toBe(false);
    expect(acl.maySubscribe(agent, `${ROOT}/request/+`)).toBe(true);
  });
});
