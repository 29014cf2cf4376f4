// The adversary of the adversary soak (adversary.bench.mjs), in its own process, from its own address
// (`from`, another loopback address: one host of the LAN), until SIGTERM; then it prints its counts.
// Without a credential: a pipelining client (900 `GET /openapi.json` and 200 docs bundles on a socket,
// answers never read), an idle-socket host (300 silent sockets every 5 s), a CONNECT flood (CONNECTs
// announcing 256 MB, and silent broker sockets). As an integration user (`user`:`password`): a
// subscription flood (1 KB filters, 200 to a SUBSCRIBE), a pick-filter bomb (a pick of BENCH_BOMB_LINES
// lines, each filtered by `product_sku in (…)` with as many values as a filter may hold) and a disk filler
// (items with ~900 KB of imageData). The authenticated attacks come from `userFrom`, another host.
// And a slow read (`slowread`: from four other addresses,
// 127.0.0.4–.7, 64 connections each pipelining `GET /openapi.json` and reading 32 bytes every 5 s,
// opened again when the station closes them) and unread searches (`unread`: as the integration user,
// 40 items of 300 KB, then 8 connections each pipelining 100 searches answering all 40, never read,
// opened again when closed; the slow read begins once the items are in).
import { request } from "node:http";
import { connect } from "node:net";
import mqtt from "mqtt";
import { BENCH_USER, DEFAULT_ATTACKS } from "../lib.mjs";

const [host, httpPort, brokerPort, from, userFrom, user, password, root] = process.argv.slice(2);
/** Lines of the bomb; each line's filter is `product_sku in (…)` as long as a filter may be (1,024 characters). */
const BOMB_LINES = Number(process.env.BENCH_BOMB_LINES ?? 500);
const BOMB_EVERY_MS = Number(process.env.BENCH_BOMB_EVERY_MS ?? 10_000);
const FILL_EVERY_MS = Number(process.env.BENCH_FILL_EVERY_MS ?? 1_000);
/** Which attacks run (BENCH_ATTACKS, comma-separated; all by default), to tell which one costs what. */
const ATTACKS = new Set((process.env.BENCH_ATTACKS ?? DEFAULT_ATTACKS).split(","));
const counts = {};
const count = (what) => {
  counts[what] = (counts[what] ?? 0) + 1;
};
const timers = [];
const every = (attack, ms, fn) => {
  if (!ATTACKS.has(attack)) return;
  fn();
  timers.push(setInterval(fn, ms));
};
const sockets = new Set();

/** A raw socket from the adversary's address; counted open and closed by `what`. */
function socket(port, what, onConnect) {
  const s = connect({ host, port: Number(port), localAddress: from }, () => {
    count(`${what}: connected`);
    onConnect?.(s);
  });
  sockets.add(s);
  s.on("error", () => count(`${what}: error`));
  s.once("close", () => sockets.delete(s));
  return s;
}

// 1. pipelining: a socket of 900 GET /openapi.json and one of 200 docs bundles every 3 s, never read;
// at most 10 such sockets kept
const piped = [];
every("pipelining", 3000, () => {
  for (const [path, n] of [
    ["/openapi.json", 900],
    ["/docs/assets/swagger-ui-bundle.js", 200],
  ]) {
    const s = socket(httpPort, "pipelining", (c) => {
      c.pause();
      c.write(`GET ${path} HTTP/1.1\r\nHost: station\r\n\r\n`.repeat(n));
    });
    piped.push(s);
  }
  while (piped.length > 10) piped.shift().destroy();
});

// 2. idle sockets: 300 that say nothing, every 5 s
every("idle", 5000, () => {
  for (let i = 0; i < 300; i++) socket(httpPort, "idle http", (s) => s.on("data", () => {}));
});

// 3. CONNECT flood: 4 CONNECTs announcing 256 MB then streaming, and 50 silent broker sockets, a second
const block = Buffer.alloc(64 * 1024);
every("connect", 1000, () => {
  for (let i = 0; i < 4; i++)
    socket(brokerPort, "connect flood", (s) => {
      s.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
      for (let k = 0; k < 16; k++) s.write(block);
    });
  for (let i = 0; i < 50; i++) socket(brokerPort, "idle mqtt", (s) => s.on("data", () => {}));
});

// 4. subscription flood: 1 KB filters, 200 to a SUBSCRIBE, every 200 ms, as the integration user
let n = 0;
const flood = mqtt.connect(`mqtt://${host}:${brokerPort}`, {
  username: user,
  password,
  protocolVersion: 4,
  reconnectPeriod: 1000,
  localAddress: userFrom,
});
flood.on("connect", () => count("subscriber: connected"));
flood.on("error", () => count("subscriber: error"));
every("subscribe", 200, () => {
  if (!flood.connected) return;
  const filters = Array.from({ length: 200 }, () => `${root}/state/PICK/${String(n++).padStart(1024, "x")}`);
  flood.subscribe(filters, { qos: 1 }, (err, granted) => {
    // mqtt.js fails a SUBACK holding a 0x80, with the packet on the error
    const codes = err ? (err.packet?.granted ?? Array(200).fill(128)) : granted.map((g) => g.qos);
    const refused = codes.filter((q) => q === 128).length;
    counts["subscriptions refused"] = (counts["subscriptions refused"] ?? 0) + refused;
    counts["subscriptions granted"] = (counts["subscriptions granted"] ?? 0) + 200 - refused;
  });
});

// 5 and 6: authenticated HTTP
/** An HTTP call from the adversary's address: its status, or `timeout`/`error`. */
function call(method, path, headers, body) {
  return new Promise((ok) => {
    const req = request(
      { host, port: Number(httpPort), method, path, headers, localAddress: userFrom, timeout: 60_000 },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => ok({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("timeout", () => {
      req.destroy();
      ok({ status: "timeout" });
    });
    req.on("error", () => ok({ status: "error" }));
    req.end(body);
  });
}

let token;
async function login() {
  const basic = Buffer.from(`${BENCH_USER.clientId}:${BENCH_USER.clientSecret}`).toString("base64");
  const res = await call(
    "POST",
    "/api-gateway/auth-service/platform-auth/oauth/token",
    { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded" },
    new URLSearchParams({ grant_type: "password", username: user, password }).toString(),
  );
  if (res.status === 200) token = JSON.parse(res.text).access_token;
}
async function post(what, path, body) {
  if (!token) await login();
  const res = await call(
    "POST",
    path,
    { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body,
  );
  count(`${what}: ${res.status}`);
}
let bombs = 0;
const inList = [];
for (let i = 0; `product_sku in (${[...inList, `'BOMB-${i}'`].join(", ")})`.length <= 1024; i++)
  inList.push(`'BOMB-${i}'`);
const bombFilter = `product_sku in (${inList.join(", ")})`;
every("bomb", BOMB_EVERY_MS, () => {
  const id = `BOMB-${process.pid}-${bombs++}`;
  const line = (k) => ({
    externalServiceRequestId: `${id}-${k}`,
    type: "PICK_LINE",
    expectations: {
      containers: [
        { products: [{ productQuantity: 1, productAttributes: { filter_parameters: [bombFilter] } }] },
      ],
    },
  });
  const lines = Array.from({ length: BOMB_LINES }, (_, k) => line(k));
  const body = JSON.stringify({ externalServiceRequestId: id, type: "PICK", serviceRequests: lines });
  post("pick-filter bomb", "/api-gateway/sr-service/platform-srms/service-request", body);
});
let filled = 0;
const image = "A".repeat(900 * 1024);
every("filler", FILL_EVERY_MS, () => {
  const sku = `FILL-${process.pid}-${filled++}`;
  const body = JSON.stringify({
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "bench",
    attributes: {
      weight: { value: 1, uom: { unit: "G" } },
      dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku },
    barcodeList: [],
    imageData: image,
  });
  post("disk filler", "/api-gateway/mdm-service/wms-masterdata/item", body);
});

// 7. slow read: 4 hosts × 64 connections, each pipelining 10 GET /openapi.json, reading 32 bytes every 5 s
// and asking once more every second (a write to a connection the station closed fails: opened again)
function stubborn(from, what, request, onConnect) {
  if (!running) return;
  const s = connect({ host, port: Number(httpPort), localAddress: from }, () => {
    count(`${what}: connected`);
    s.pause();
    onConnect(s);
  });
  sockets.add(s);
  const more = setInterval(() => {
    if (s.writable) s.write(request);
  }, 1000);
  const sip = setInterval(() => s.read(32), 5000);
  s.on("error", () => {});
  s.once("close", () => {
    count(`${what}: closed`);
    clearInterval(more);
    clearInterval(sip);
    sockets.delete(s);
    setTimeout(() => stubborn(from, what, request, onConnect), 100);
  });
}
let running = true;
function slowRead() {
  if (!ATTACKS.has("slowread")) return;
  const get = "GET /openapi.json HTTP/1.1\r\nHost: station\r\n\r\n";
  for (const from of ["127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7"])
    for (let i = 0; i < 64; i++) stubborn(from, "slow read", get, (s) => s.write(get.repeat(10)));
}

// 8. unread searches: 40 items of 300 KB answered by one search, 100 of them pipelined on each of 8
// connections as the integration user, never read
if (ATTACKS.has("unread")) {
  const image = "I".repeat(300 * 1024);
  (async () => {
    for (let i = 0; i < 40; i++) {
      const body = JSON.stringify({
        schema: { unique: [["product_sku", "client_id"]], type: "object" },
        clientCategoryId: "bench",
        attributes: {
          weight: { value: 1, uom: { unit: "G" } },
          dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
        },
        productAttributes: { product_sku: `UNREAD-${i}`, client_id: "UNREAD" },
        barcodeList: [],
        imageData: image,
      });
      await post("unread seed", "/api-gateway/mdm-service/wms-masterdata/item", body);
    }
    const search = JSON.stringify({ filter_params: [{ key: "client_id", operator: "=", value: "UNREAD" }] });
    const request =
      `POST /api-gateway/mdm-service/wms-masterdata/item/search_v2 HTTP/1.1\r\nHost: station\r\n` +
      `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(search)}\r\n\r\n${search}`;
    for (let i = 0; i < 8; i++)
      stubborn(userFrom, "unread search", request, (s) => s.write(request.repeat(100)));
    // the slow readers come once the items are in: they would hold the places the seeding needs
    slowRead();
  })();
} else slowRead();

process.stdout.write("STARTED\n");
process.on("SIGTERM", () => {
  running = false;
  for (const t of timers) clearInterval(t);
  for (const s of sockets) s.destroy();
  flood.end(true);
  process.stdout.write(`STATS ${JSON.stringify(counts)}\n`);
  setTimeout(() => process.exit(0), 100);
});
