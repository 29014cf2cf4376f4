// A simulated station for the fleet benchmark and the fleet system test: real agents do not fit by the
// hundred on two cores, so the rest of a warehouse is these. Each one speaks the agent's MQTT contract
// (docs/mqtt.md) as far as central can tell: the same client id, Will and retained `connection` with a
// session number, the retained `state/station` with `lastNotificationSeq` on every connect, at most
// 2 s after new notifications and every 30 s regardless, the notification envelope with
// `notification_id` `<site>.<ppsId>.<seq>` on the one `notification` topic at QoS 1, at most 64
// unacknowledged, resent from the oldest unacknowledged after a reconnect, the subscription, ONLINE,
// `state/station` and the notifications written back to back after CONNACK (the times of their
// acknowledgements kept with each connection), and `request/replay_notifications` answered from its
// outbox. Like the agent with `mqtt.failoverUrls`, it moves to the next node at once when its node is
// lost, and like the agent with `mqtt.failbackAfterMs` (src/domain/backoff.ts, src/sync/connection.ts)
// it returns to an earlier node of its list once that one has taken TCP connections for between
// `failbackAfterMs` and twice that (doubled after each return that failed), the in-flight notifications
// acknowledged first and the connection left with a DISCONNECT. Its outbox is in memory: a simulated
// station is never restarted.
import { connect as tcpConnect } from "node:net";
import mqtt from "mqtt";

const WINDOW = 64;
const STATE_EVERY_MS = 2000;
/** As the agent: `state/station` at least this often, new notifications or not (src/sync/sync.ts). */
const STATE_REFRESH_MS = 30_000;
/** As the agent: the earlier nodes checked every 2 s (or twice per `failbackAfterMs`), settling 2 s at most. */
const FAILBACK_PROBE_MS = 2000;
const SETTLE_MS = 2000;
const STABLE_CONNECTION_MS = 10_000;

/** Whether `url` takes a TCP connection (src/sync/broker-reachable.ts). */
function reachable(url, timeoutMs) {
  const u = new URL(url);
  return new Promise((done) => {
    const socket = tcpConnect({ host: u.hostname, port: Number(u.port || 1883) });
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

export function simStation({
  urls,
  site,
  ppsId,
  protocolVersion = 4,
  requestQos = 0,
  reconnectMs = 100,
  failbackAfterMs = 10_000,
  version = "1.5.0",
}) {
  const root = `ppsedge/v1/${site}/${ppsId}`;
  const outbox = [];
  const ackedSet = new Set();
  let acked = 0;
  let next = 1;
  let session = 0;
  let node = 0;
  let client;
  let stateFor = -1;
  let stateAt = 0;
  let stopped = false;
  /** Returning to an earlier node: the address left for, the one returned to, failed returns in a row. */
  let leavingFor;
  let returnedTo;
  let failedReturns = 0;
  let upAt;
  /**
   * When each connection came up, the node it is on, and when its first notification was acknowledged:
   * what the failover figures are read from.
   */
  const connects = [];

  const stamp = () => new Date().toISOString();
  const state = () =>
    JSON.stringify({
      site,
      ppsId,
      mode: "pick",
      lastNotificationSeq: outbox.length,
      simulated: true,
      timestamp: stamp(),
    });

  function publishState(c) {
    stateFor = outbox.length;
    stateAt = Date.now();
    c.publish(`${root}/state/station`, state(), { qos: 1, retain: true });
  }

  function pump() {
    const c = client;
    if (!c?.connected || leavingFor !== undefined) return;
    while (next <= outbox.length && next - acked <= WINDOW) {
      const seq = next++;
      c.publish(`${root}/notification`, outbox[seq - 1], { qos: 1 }, (err) => {
        if (err || c !== client) return; // resent on the next connection
        const conn = connects.at(-1);
        if (conn && conn.firstAckAt === undefined) conn.firstAckAt = Date.now();
        ackedSet.add(seq);
        while (ackedSet.delete(acked + 1)) acked++;
        pump();
      });
    }
  }

  function answer(c, topic, payload) {
    if (!topic.endsWith("/request/replay_notifications")) return;
    let r;
    try {
      r = JSON.parse(payload.toString());
    } catch {
      return;
    }
    const after = Number(r.after ?? 0);
    const limit = Math.min(Number(r.limit ?? 100), 500);
    const notifications = outbox
      .slice(after, after + limit)
      .map((p, i) => ({ seq: after + i + 1, payload: p }));
    const nextAfter = after + notifications.length;
    const data = {
      notifications,
      next_after: nextAfter,
      more: nextAfter < outbox.length,
      last_seq: outbox.length,
      first_available_seq: outbox.length ? 1 : null,
    };
    const body = JSON.stringify({ transaction: r.transaction, status: "ok", data, error: null });
    c.publish(`${root}/response/replay_notifications`, body, { qos: 1 });
  }

  /** On a later node, the earlier ones checked until one has answered long enough (as the agent). */
  function watchEarlierNodes(c) {
    if (failbackAfterMs <= 0 || node === 0) return;
    const every = Math.max(50, Math.min(FAILBACK_PROBE_MS, failbackAfterMs / 2));
    const hold = Math.min(3_600_000, failbackAfterMs * (1 + Math.random()) * 2 ** failedReturns);
    const since = [];
    const check = async () => {
      const answers = await Promise.all(urls.slice(0, node).map((u) => reachable(u, every)));
      if (c !== client || !c.connected || stopped) return;
      const now = performance.now();
      answers.forEach((ok, i) => {
        since[i] = ok ? (since[i] ?? now) : undefined;
      });
      const target = since.findIndex((t) => t !== undefined && now - t >= hold);
      if (target === -1) setTimeout(check, every);
      else leave(c, target);
    };
    setTimeout(check, Math.random() * every);
  }

  /** In-flight notifications acknowledged (or SETTLE_MS), then DISCONNECT; the close goes to `target`. */
  async function leave(c, target) {
    leavingFor = target;
    const until = Date.now() + SETTLE_MS;
    while (acked < next - 1 && Date.now() < until && c === client)
      await new Promise((ok) => setTimeout(ok, 10));
    if (c !== client) return;
    c.end(false);
  }

  function connect() {
    if (stopped) return;
    session++;
    const url = urls[node];
    const c = mqtt.connect(url, {
      clientId: `pps-edge-${site}-${ppsId}`,
      protocolVersion,
      clean: true,
      keepalive: 15,
      connectTimeout: 5000,
      reconnectPeriod: 0,
      queueQoSZero: false,
      resubscribe: false,
      will: {
        topic: `${root}/connection`,
        payload: Buffer.from(JSON.stringify({ state: "CONNECTION_BROKEN", session, timestamp: stamp() })),
        qos: 1,
        retain: true,
      },
    });
    client = c;
    c.on("connect", () => {
      if (c !== client) return; // closed meanwhile
      const conn = { at: Date.now(), url };
      connects.push(conn);
      upAt = performance.now();
      watchEarlierNodes(c);
      c.subscribe(`${root}/request/+`, { qos: requestQos }, () => {
        conn.subackAt = Date.now();
      });
      c.publish(
        `${root}/connection`,
        JSON.stringify({ state: "ONLINE", session, timestamp: stamp() }),
        { qos: 1, retain: true },
        () => {
          conn.onlineAckAt = Date.now();
        },
      );
      publishState(c);
      next = acked + 1;
      pump();
    });
    c.on("message", (topic, payload) => answer(c, topic, payload));
    c.on("error", () => {});
    c.once("close", () => {
      c.end(true);
      if (c !== client || stopped) return;
      client = undefined;
      const stable = upAt !== undefined && performance.now() - upAt >= STABLE_CONNECTION_MS;
      upAt = undefined;
      if (leavingFor !== undefined) {
        // a planned return: straight to that node
        node = leavingFor;
        returnedTo = leavingFor;
        leavingFor = undefined;
        setTimeout(connect, 0);
        return;
      }
      if (returnedTo === node) {
        failedReturns = stable ? 0 : failedReturns + 1;
        returnedTo = undefined;
      }
      node = (node + 1) % urls.length; // the next node at once, as the agent does (docs/mqtt.md#a-clustered-broker)
      setTimeout(connect, Math.random() * reconnectMs);
    });
  }

  const ticker = setInterval(() => {
    const stale = Date.now() - stateAt >= STATE_REFRESH_MS;
    if (client?.connected && (stateFor < outbox.length || stale)) publishState(client);
  }, STATE_EVERY_MS);
  connect();

  return {
    station: `${site}/${ppsId}`,
    connects,
    connected: () => client?.connected === true,
    url: () => urls[node],
    /** One notification committed: into the outbox, then out in order. */
    notify(type, data) {
      const id = `${site}.${ppsId}.${outbox.length + 1}`;
      outbox.push(
        JSON.stringify({
          notification_type: type,
          version_number: version,
          notification_id: id,
          notification_data: data,
        }),
      );
      pump();
    },
    committed: () => outbox,
    lastSeq: () => outbox.length,
    acked: () => acked,
    async stop() {
      stopped = true;
      clearInterval(ticker);
      const c = client;
      client = undefined;
      if (c?.connected)
        await c.publishAsync(
          `${root}/connection`,
          JSON.stringify({ state: "OFFLINE", session, timestamp: stamp() }),
          {
            qos: 1,
            retain: true,
          },
        );
      await c?.endAsync();
    },
  };
}
