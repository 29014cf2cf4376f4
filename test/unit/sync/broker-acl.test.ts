import { describe, expect, it } from "vitest";
import { brokerAcl, filtersOverlap, mayConnect, topicMatches } from "../../../src/sync/broker-acl.js";

const ROOT = "ppsedge/v1/dc1/7";
const acl = brokerAcl(ROOT);
const central = { kind: "user", username: "central", role: "integration" } as const;
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
    // sending dead letters again is for admins only, as over HTTP
    expect(acl.mayPublish(central, `${ROOT}/request/replay_dead_letters`, false)).toBe(false);
    expect(acl.mayPublish(central, `${ROOT}/request/health_check`, false)).toBe(true);
    for (const t of ["notification", "connection", "state/station", "response/x"])
      expect([t, acl.mayPublish(central, `${ROOT}/${t}`, false)]).toEqual([t, false]);
    expect(acl.mayPublish(central, "ppsedge/v1/dc1/8/request/x", false)).toBe(false);
    expect(acl.maySubscribe(central, `${ROOT}/#`)).toBe(true);
    for (const f of ["#", "$SYS/#", "ppsedge/#", "ppsedge/v1/+/7/#", `${ROOT}/request/#`])
      expect([f, acl.maySubscribe(central, f)]).toEqual([f, false]);
    expect(acl.mayReceive(central, `${ROOT}/request/x`)).toBe(false);
    expect(acl.mayReceive(central, `${ROOT}/state/PICK/P1`)).toBe(true);
  });

  it("lets an admin read beyond the branch ($SYS, any wildcard), publish like central, and refuses operators", () => {
    const admin = { kind: "user", username: "root", role: "admin" } as const;
    const operator = { kind: "user", username: "olga", role: "operator" } as const;
    for (const f of ["#", "$SYS/#", "ppsedge/#", `${ROOT}/#`])
      expect([f, acl.maySubscribe(admin, f)]).toEqual([f, true]);
    expect(acl.mayReceive(admin, "$SYS/broker/uptime")).toBe(true);
    expect(acl.mayReceive(admin, "ppsedge/v1/dc1/8/notification")).toBe(true);
    expect(acl.mayPublish(admin, `${ROOT}/request/x`, false)).toBe(true);
    expect(acl.mayPublish(admin, `${ROOT}/request/replay_dead_letters`, false)).toBe(true);
    expect(acl.mayPublish(admin, `${ROOT}/notification`, false)).toBe(false);
    expect(mayConnect(operator)).toBe(false);
    expect(mayConnect(admin) && mayConnect(central)).toBe(true);
    expect(acl.maySubscribe(operator, `${ROOT}/#`)).toBe(false);
    expect(acl.mayPublish(operator, `${ROOT}/request/x`, false)).toBe(false);
  });

  it("lets the agent publish in its branch, retained too", () => {
    expect(acl.mayPublish(agent, `${ROOT}/connection`, true)).toBe(true);
    expect(acl.mayPublish(agent, "ppsedge/v1/dc1/8/connection", true)).toBe(false);
    expect(acl.maySubscribe(agent, `${ROOT}/request/+`)).toBe(true);
  });
});
