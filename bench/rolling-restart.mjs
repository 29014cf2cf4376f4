// A rolling restart of a cluster's nodes (docs/mqtt.md#a-rolling-restart), as an upgrade does it: each
// node stopped cleanly, started again, and the next one stopped `gapMs` after it is back. Shared by the
// fleet bench (fleet-cluster.bench.mjs, BENCH_FLEET_ROLLING) and the system test
// (test/system/fleet/rolling-restart.test.ts), with what both measure of each restart: how long each
// station of the stopped node went without an acknowledgement.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Each node of `nodes` in turn (each has `stop()`, `start()`): `measure(node)` first (what the caller
 * takes before the stop: which stations are on it), whose result is called with the moment of the stop
 * and returns a promise of that restart's figures; then the stop, `downMs`, the start, `ready(node)`
 * (the node serving again, e.g. back in its cluster), and `gapMs` before the next node. Resolves with one
 * record per restart: the node, when it was stopped (`at`), how long the stop took and when the node was
 * back (ms from `at`), and the caller's figures.
 */
export async function rollingRestart(
  nodes,
  { downMs = 0, gapMs = 3000, ready = async () => {}, measure = async () => async () => ({}) } = {},
) {
  const restarts = [];
  for (const node of nodes) {
    const figures = await measure(node);
    const at = Date.now();
    const measured = figures(at);
    await node.stop();
    const stoppedMs = Date.now() - at;
    await sleep(downMs);
    await node.start();
    await ready(node);
    const backMs = Date.now() - at;
    await sleep(gapMs);
    restarts.push({ node: node.name, at, stoppedMs, backMs, ...(await measured) });
  }
  return restarts;
}

/**
 * How long after `at` each of `stations` (those on the node stopped at `at`) was acknowledged again
 * through another node: per station, ms from `at`, or null if not within `timeoutMs`. A station is
 * `{ station, node(), acked() }`: the address it is connected to (undefined while it is not), and how
 * many of its notifications are acknowledged; both may return promises. An acknowledgement counts once
 * the station is seen on another node, and only if it is newer than any seen while it was still on the
 * stopped node or between nodes, so what the stopping node acknowledged before it closed is not taken
 * for the next node's.
 */
export async function silences(stations, victimUrl, at, { timeoutMs = 60_000, everyMs = 20 } = {}) {
  const marks = await Promise.all(stations.map((s) => s.acked()));
  const back = stations.map(() => null);
  while (back.some((b) => b === null) && Date.now() - at < timeoutMs) {
    await Promise.all(
      stations.map(async (s, i) => {
        if (back[i] !== null) return;
        const [node, acked] = await Promise.all([s.node(), s.acked()]);
        const elsewhere = node !== undefined && node !== victimUrl;
        if (elsewhere && acked > marks[i]) back[i] = Date.now() - at;
        else if (!elsewhere) marks[i] = acked;
      }),
    );
    await sleep(everyMs);
  }
  return stations.map((s, i) => ({ station: s.station, ms: back[i] }));
}

/**
 * A simulated station's silence (bench/sim-station.mjs keeps its connections): from `at` to the first
 * acknowledgement on a connection made after it; null if none yet.
 */
export function simulatedSilence(connects, at) {
  const c = connects.find((x) => x.at > at && x.firstAckAt !== undefined);
  return c ? c.firstAckAt - at : null;
}
