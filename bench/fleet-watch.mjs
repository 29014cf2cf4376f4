// What central sees in the fleet benchmark: the reference consumer's JSON lines (one per delivered
// notification) read as they come, and, for comparison, a `$share` group of plain subscribers whose
// merged arrivals show what round robin does to each station's order.
import { createInterface } from "node:readline";
import mqtt from "mqtt";

const seqOf = (id) => Number(id.slice(id.lastIndexOf(".") + 1));

/**
 * Per station: delivered, distinct ids, highest seq, reordered; latencies from commit to delivery. Reads
 * `stream`, and every stream given to `add` (the replicas of central), into the same figures.
 */
export function watchDeliveries(stream) {
  const stations = new Map();
  const latencies = [];
  let delivered = 0;
  const onLine = (line) => {
    let d;
    try {
      d = JSON.parse(line);
    } catch {
      return; // the last line of a consumer that was killed mid-write
    }
    const id = d.notification.notification_id;
    let st = stations.get(d.station);
    if (!st) {
      st = { delivered: 0, ids: new Set(), last: 0, reordered: 0, duplicates: 0 };
      stations.set(d.station, st);
    }
    delivered++;
    st.delivered++;
    if (st.ids.has(id)) st.duplicates++;
    else {
      st.ids.add(id);
      if (d.seq < st.last) st.reordered++;
    }
    st.last = Math.max(st.last, d.seq);
    const committedAt = d.notification.notification_data?.committedAt;
    if (typeof committedAt === "number")
      latencies.push({ committedAt, ms: Date.parse(d.deliveredAt) - committedAt });
  };
  const add = (s) => createInterface({ input: s }).on("line", onLine);
  if (stream) add(stream);
  return {
    add,
    stations,
    latencies,
    delivered: () => delivered,
    last: (station) => stations.get(station)?.last ?? 0,
    distinct: (station) => stations.get(station)?.ids.size ?? 0,
  };
}

/**
 * `members` subscribers in one `$share` group (MQTT 5 §4.8.2) on every station's notifications. Their
 * arrivals, merged in this process, are what a central system behind the group would process: a
 * notification counts as out of order when a later one of its station arrived before it.
 */
export async function shareGroup(url, site, members = 2) {
  const highest = new Map();
  let received = 0;
  let outOfOrder = 0;
  const clients = [];
  for (let i = 0; i < members; i++) {
    const c = await mqtt.connectAsync(url, {
      clientId: `bench-share-${process.pid}-${i}`,
      protocolVersion: 5,
      clean: true,
      reconnectPeriod: 0,
    });
    c.on("message", (_topic, payload) => {
      const id = JSON.parse(payload).notification_id;
      const station = id.slice(0, id.lastIndexOf("."));
      const seq = seqOf(id);
      received++;
      if (seq < (highest.get(station) ?? 0)) outOfOrder++;
      else highest.set(station, seq);
    });
    await c.subscribeAsync(`$share/bench/ppsedge/v1/${site}/+/notification`, { qos: 1 });
    clients.push(c);
  }
  return {
    async stop() {
      for (const c of clients) await c.endAsync();
      const percent = received ? Math.round((outOfOrder / received) * 10_000) / 100 : null;
      return { members, received, outOfOrder, outOfOrderPercent: percent };
    },
  };
}

/**
 * When each station was connected again after a broker restart: its retained `connection` ONLINE
 * (docs/mqtt.md#topics), whose `timestamp` is the agent's clock at connect (one machine: one clock).
 * Subscribes once the broker is back; a station that connected before that is still seen, because the
 * message is retained. Resolves with the ms from `since` to each station's ONLINE, in station order.
 */
export async function watchReconnects(url, site, stations, since, timeoutMs = 120_000) {
  const at = new Map();
  const c = await mqtt.connectAsync(url, {
    clientId: `bench-reconnects-${process.pid}`,
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not every station reconnected in ${timeoutMs} ms`)),
      timeoutMs,
    );
    c.on("message", (topic, payload) => {
      const station = topic.split("/")[3];
      const m = JSON.parse(payload.toString() || "{}");
      const t = Date.parse(m.timestamp);
      if (m.state !== "ONLINE" || !(t >= since) || at.has(station)) return;
      at.set(station, t - since);
      if (stations.every((s) => at.has(s))) {
        clearTimeout(timer);
        resolve(stations.map((s) => at.get(s)));
      }
    });
  });
  await c.subscribeAsync(`ppsedge/v1/${site}/+/connection`, { qos: 1 });
  try {
    return await done;
  } finally {
    await c.endAsync();
  }
}
