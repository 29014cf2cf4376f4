// Issue "webhooks" benchmark: the agent delivering its outbox as signed webhooks (Standard Webhooks v1,
// one in flight per endpoint, on a kept-alive connection) to one receiver on this computer, in its own
// process. Two figures per receiver: notifications per second draining a backlog of BENCH_WEBHOOKS
// notifications, and commit → receiver latency (p50/p99) for a paced stream of BENCH_WEBHOOK_PACED
// notifications committed one per millisecond, each in its own transaction. Once with a receiver that
// accepts everything, once with one that answers 500 to 10% of the requests at random (retried after
// webhooks.retryMinMs = 10 ms with full jitter; strict order means nothing passes a failed one meanwhile).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { agentModules, BENCH_DIR, BENCH_USER, summary } from "./lib.mjs";

const N = Number(process.env.BENCH_WEBHOOKS ?? 20_000);
const PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 3_000);
const SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;

/** The receiver in its own process; resolves once it listens. */
function startReceiver(failRate) {
  const proc = spawn(process.execPath, [join(BENCH_DIR, "servers", "webhook-receiver.mjs")], {
    env: { ...process.env, FAIL_RATE: String(failRate) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((ok, fail) => {
    let buf = "";
    const onData = (d) => {
      buf += d.toString();
      const m = /READY (\d+) /.exec(buf);
      if (!m) return;
      proc.stdout.off("data", onData);
      const stop = () =>
        new Promise((done) => {
          proc.once("exit", () => done());
          proc.kill("SIGTERM");
        });
      ok({ proc, port: Number(m[1]), stop });
    };
    proc.stdout.on("data", onData);
    proc.once("exit", (code) => fail(new Error(`the receiver exited with ${code}`)));
  });
}

/** Asks the receiver for what it accepted since the last ask. */
function collect(receiver) {
  return new Promise((ok) => {
    const onData = (d) => {
      buf += d.toString();
      const m = /TIMES (.*)\n/.exec(buf);
      if (m) {
        receiver.stdout.off("data", onData);
        ok(JSON.parse(m[1]));
      }
    };
    let buf = "";
    receiver.stdout.on("data", onData);
    process.kill(receiver.pid, "SIGUSR2");
  });
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Waits until the endpoint's cursor reaches `seq` (every notification up to it answered 2xx). */
async function deliveredUpTo(agent, seq) {
  const until = Date.now() + 300_000;
  for (;;) {
    const h = agent.services.webhooks.get("bench");
    if (h.deliveredSeq >= seq) return;
    if (Date.now() > until) throw new Error(`delivered up to ${h.deliveredSeq} of ${seq} in 5 minutes`);
    await sleep(2);
  }
}

function commitAt(agent, data) {
  const at = performance.timeOrigin + performance.now();
  agent.services.unitOfWork.run((tx) => tx.notify("order_information", data));
  return at;
}

async function variant(failRate) {
  const child = await startReceiver(failRate);
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-webhooks-"));
  const { createAgent, parseConfig } = await agentModules();
  const config = parseConfig({
    dataDir: dir,
    site: "bench",
    ppsId: "1",
    ...BENCH_USER,
    http: { host: "127.0.0.1", port: 0 },
    log: { level: "silent" },
    mqtt: { url: "off", outboxWarnDepth: 10_000_000 },
    outbox: { maxUndelivered: 1_000_000 },
    webhooks: {
      retryMinMs: 10,
      retryMaxMs: 200,
      allow: { loopback: true, plainHttp: true },
      endpoints: [{ id: "bench", url: `http://127.0.0.1:${child.port}/hook`, secret: SECRET }],
    },
  });
  const agent = createAgent(config, { log: pino({ level: "silent" }) });
  await agent.start();
  try {
    // a backlog, committed in transactions of 500, drained as fast as the receiver answers
    const t0 = performance.now();
    for (let i = 0; i < N; i += 500)
      agent.services.unitOfWork.run((tx) => {
        for (let j = i; j < Math.min(N, i + 500); j++)
          tx.notify("order_information", { externalServiceRequestId: `ORD-${j}` });
      });
    await deliveredUpTo(agent, N);
    const seconds = (performance.now() - t0) / 1000;
    const drained = await collect(child.proc);
    // a paced stream: one commit a millisecond, latency from each commit to its first 2xx
    const committedAt = new Map();
    for (let i = 0; i < PACED; i++) {
      committedAt.set(N + i + 1, commitAt(agent, { externalServiceRequestId: `P-${i}` }));
      await sleep(1);
    }
    await deliveredUpTo(agent, N + PACED);
    const paced = await collect(child.proc);
    const latencies = [...committedAt].map(([seq, at]) => paced.times[seq] - at);
    return {
      failRate,
      backlog: {
        notifications: N,
        seconds: Math.round(seconds * 100) / 100,
        perSecond: Math.round(N / seconds),
        requests: drained.requests,
        answered500: drained.failed,
        received: Object.keys(drained.times).length,
      },
      commitToReceiverMs: summary(latencies),
      paced: { notifications: PACED, requests: paced.requests, answered500: paced.failed },
    };
  } finally {
    await agent.stop();
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run() {
  const all = await variant(0);
  const failing = await variant(0.1);
  return {
    settings: { backlog: N, paced: PACED, inFlight: 1, keepAlive: true, retryMinMs: 10, retryMaxMs: 200 },
    target: { perSecond: 2000 },
    meetsTarget: all.backlog.perSecond >= 2000,
    receiverAcceptsAll: all,
    receiverFails10Percent: failing,
  };
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "notifications/s": { value: r.receiverAcceptsAll.backlog.perSecond, better: "higher" },
    "commit → receiver p50 ms": { value: r.receiverAcceptsAll.commitToReceiverMs.p50, better: "lower" },
    "commit → receiver p99 ms": { value: r.receiverAcceptsAll.commitToReceiverMs.p99, better: "lower" },
    "10% failing: notifications/s": { value: r.receiverFails10Percent.backlog.perSecond, better: "higher" },
    "10% failing: p99 ms": { value: r.receiverFails10Percent.commitToReceiverMs.p99, better: "lower" },
  };
}
