// HTTP load against the agent, in its own process so it does not share the measuring event loop:
// station state reads and pick creates, until SIGTERM. Closed loop (`rate` 0): `readers` + `writers`
// workers each send their next request as soon as the last is answered, as much as the agent can
// serve. Open loop (`rate` > 0): that many requests per second in total, readers:writers mixed, sent
// on schedule whether or not earlier ones were answered (at most 256 in flight).
const [base, token, readers = "12", writers = "4", rate = "0"] = process.argv.slice(2);
const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
let stop = false;
let done = 0;
let failed = 0;
let n = 0;
let inFlight = 0;
const line = { productQuantity: 1, productAttributes: { filter_parameters: ["product_sku = 'LOAD'"] } };
const pick = (i) =>
  JSON.stringify({
    externalServiceRequestId: `LOAD-${process.pid}-${i}`,
    type: "PICK",
    serviceRequests: [
      {
        externalServiceRequestId: `LOAD-${process.pid}-${i}-1`,
        type: "PICK_LINE",
        expectations: { containers: [{ products: [line] }] },
      },
    ],
  });

async function one(write) {
  inFlight++;
  try {
    const res = write
      ? await fetch(`${base}/api-gateway/sr-service/platform-srms/service-request`, {
          method: "POST",
          headers,
          body: pick(n++),
        })
      : await fetch(`${base}/station/state`, { headers });
    await res.arrayBuffer();
    if (res.ok) done++;
    else failed++;
  } catch {
    failed++;
  } finally {
    inFlight--;
  }
}

async function worker(write) {
  while (!stop) await one(write);
}

const R = Number(readers);
const W = Number(writers);
const t0 = performance.now();
let workers = [];
let ticker;
if (Number(rate) > 0) {
  // open loop: a request every 1000/rate ms, writers in proportion W/(R+W)
  let k = 0;
  const every = 1000 / Number(rate);
  let due = performance.now();
  const tick = () => {
    const now = performance.now();
    while (due <= now && !stop) {
      if (inFlight < 256) void one(k % (R + W) >= R);
      k++;
      due += every;
    }
  };
  ticker = setInterval(tick, 1);
} else {
  workers = [
    ...Array.from({ length: R }, () => worker(false)),
    ...Array.from({ length: W }, () => worker(true)),
  ];
}
process.stdout.write("READY 0 {}\n");
process.on("SIGTERM", async () => {
  stop = true;
  if (ticker) clearInterval(ticker);
  await Promise.all(workers);
  const seconds = (performance.now() - t0) / 1000;
  const stats = { requests: done, failed, perSecond: Math.round(done / seconds) };
  process.stdout.write(`STATS ${JSON.stringify(stats)}\n`);
  process.exit(0);
});
