/**
 * Who may do what on the embedded broker (docs/mqtt.md#embedded-broker-credentials-and-acl). Pure: no
 * IO. Everything of this station lives under its branch `ppsedge/v1/<site>/<ppsId>/`; nothing outside
 * it (`#`, `$SYS/#`, another station's branch) is granted to anyone but the agent itself.
 */

import type { Role } from "../domain/roles.js";
import { requestsRefusedTo } from "./topics.js";

/** Who a connection authenticated as. */
export type BrokerPrincipal =
  | { kind: "agent" }
  /** An API user: its role decides (docs/security.md#roles). */
  | { kind: "user"; username: string; role: Role }
  /** No credentials, only when `mqtt.embeddedAnonymous` allows it (loopback only). */
  | { kind: "anonymous" };

/** Topic filters a principal may publish to, and read (subscribe and be delivered). */
export interface Grants {
  publish: string[];
  /** Topics inside `publish` it may not publish to: the admins' requests, for anyone else. */
  publishExcept: string[];
  read: string[];
  /** Whether its publishes may be retained (only the agent's `connection` and `state/…` are). */
  retain: boolean;
  /** Whether it may subscribe outside the station's branch. */
  anywhere: boolean;
}

const NOTHING: Grants = { publish: [], publishExcept: [], read: [], retain: false, anywhere: false };

/** Whether a principal may connect at all: operators have no business on the broker (docs/mqtt.md). */
export function mayConnect(principal: BrokerPrincipal): boolean {
  return principal.kind !== "user" || principal.role !== "operator";
}

/**
 * The one place that decides per principal (docs/mqtt.md#roles). `integration` is the central system:
 * it publishes the station's requests and reads what the station publishes. `admin` may do the same and
 * also read beyond the branch: `$SYS` and any wildcard. `operator` is refused at connect. Anonymous
 * clients, when allowed at all, get the central system's rights: they exist for trying the station out
 * on the station's own computer.
 */
export function grantsFor(principal: BrokerPrincipal, root: string): Grants {
  if (principal.kind === "agent")
    return { publish: [`${root}/#`], publishExcept: [], read: ["#"], retain: true, anywhere: true };
  if (!mayConnect(principal)) return NOTHING;
  // a request is refused to a role that may not perform its operation, as its HTTP route is
  // (domain/permissions.ts); anonymous clients have the central system's rights
  const role = principal.kind === "user" ? principal.role : "integration";
  const central: Grants = {
    publish: [`${root}/request/#`],
    publishExcept: requestsRefusedTo(role).map((name) => `${root}/request/${name}`),
    read: [`${root}/connection`, `${root}/notification`, `${root}/state/#`, `${root}/response/#`],
    retain: false,
    anywhere: false,
  };
  if (principal.kind === "user" && principal.role === "admin")
    return { ...central, read: [...central.read, "#", "$SYS/#"], anywhere: true };
  return central;
}

/** MQTT topic matching (MQTT 3.1.1 §4.7): `+` one level, `#` the rest; `$` topics never by a wildcard. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  if (topic.startsWith("$") && (f[0] === "+" || f[0] === "#")) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** Whether some topic matches both filters. */
export function filtersOverlap(a: string, b: string): boolean {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === "#" || y[i] === "#") return true;
    if (x[i] === undefined || y[i] === undefined) return false;
    if (x[i] !== "+" && y[i] !== "+" && x[i] !== y[i]) return false;
  }
  return true;
}

export interface BrokerAcl {
  mayPublish(p: BrokerPrincipal, topic: string, retain: boolean): boolean;
  /** A filter inside the station's branch that can match something the principal may read. */
  maySubscribe(p: BrokerPrincipal, filter: string): boolean;
  /** Per message: a filter like `<root>/#` is granted, but delivers only what may be read. */
  mayReceive(p: BrokerPrincipal, topic: string): boolean;
}

export function brokerAcl(root: string): BrokerAcl {
  const branch = `${root}/`;
  return {
    mayPublish(p, topic, retain) {
      const g = grantsFor(p, root);
      return (
        (g.retain || !retain) &&
        g.publish.some((f) => topicMatches(f, topic)) &&
        !g.publishExcept.some((f) => topicMatches(f, topic))
      );
    },
    maySubscribe(p, filter) {
      const g = grantsFor(p, root);
      if (!g.anywhere && !filter.startsWith(branch)) return false;
      return g.read.some((f) => filtersOverlap(f, filter));
    },
    mayReceive(p, topic) {
      return grantsFor(p, root).read.some((f) => topicMatches(f, topic));
    },
  };
}
