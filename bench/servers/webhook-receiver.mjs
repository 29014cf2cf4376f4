// Benchmark receiver: a node:http server that answers webhooks 204 (or 500 to a share FAIL_RATE of the
// requests, at random), keeps connections alive, and records when each notification was first accepted
// (epoch ms, sub-millisecond). `READY <port> {}` once listening; on SIGUSR2 it prints
// `TIMES <json>` ({ seq: acceptedAtMs }) and forgets them; SIGTERM stops it.
import { createServer } from "node:http";

const failRate = Number(process.env.FAIL_RATE ?? 0);
let accepted = new Map();
let requests = 0;
let failed = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    requests++;
    if (failRate > 0 && Math.random() < failRate) {
      failed++;
      res.writeHead(500).end();
      return;
    }
    const id = req.headers["webhook-id"];
    const seq = Number(id.slice(id.lastIndexOf(".") + 1));
    if (!accepted.has(seq)) accepted.set(seq, performance.timeOrigin + performance.now());
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`READY ${server.address().port} {}\n`));
process.on("SIGUSR2", () => {
  process.stdout.write(
    `TIMES ${JSON.stringify({ requests, failed, times: Object.fromEntries(accepted) })}\n`,
  );
  accepted = new Map();
  requests = failed = 0;
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
