import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { fuzzRoute, type HttpFuzz, startHttpFuzz } from "../../support/fuzz/http-fuzz.js";
import type { FuzzRequest } from "../../support/fuzz/requests.js";
import { runs, selected } from "../../support/fuzz/run.js";

/**
 * The same hostile requests over a real socket to the Node server, for every route that reads a body:
 * there the body is read from the socket as bytes (src/http/body.ts), so invalid UTF-8, duplicated keys,
 * a BOM and bodies past the size limit take the production path, with a declared length or chunked.
 * A fifth of `FUZZ_RUNS` per route: the in-process shards already send the full count.
 */

const f: HttpFuzz = await startHttpFuzz(true);
const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
afterAll(async () => {
  agent.destroy();
  await f.t.close();
});

/** Characters Node's client refuses in a request path are sent percent-encoded (as UTF-8). */
const wirePath = (url: string) =>
  url.replace(/[^\x21-\x7e]/gu, (c) =>
    [...Buffer.from(c, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  );

/** Sends over the socket: bodies of odd length chunked (no Content-Length), the others with their length. */
function sendOverSocket(req: FuzzRequest): Promise<Response> {
  const port = f.t.agent.address?.port;
  const chunked = req.body !== undefined && req.body.length % 2 === 1;
  const headers: Record<string, string | number> = { ...req.headers };
  if (req.body && !chunked) headers["Content-Length"] = req.body.length;
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: "127.0.0.1", port, path: wirePath(req.url), method: req.method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: h }));
        });
        res.on("error", reject);
      },
    );
    r.on("error", (e) => reject(new Error(`${req.method} ${req.url.slice(0, 100)}: ${e.message}`)));
    if (!req.body) return r.end();
    // a chunked body goes out in pieces, as a client streaming it would
    if (chunked) for (let i = 0; i < req.body.length; i += 65_536) r.write(req.body.subarray(i, i + 65_536));
    r.end(chunked ? undefined : req.body);
  });
}

describe("hostile request bodies over a real socket", () => {
  const bodyRoutes = f.routes.filter((r) => r.body);
  it("every route that reads a body is listed", () => expect(bodyRoutes.length).toBeGreaterThan(20));
  for (const spec of bodyRoutes) {
    const name = `${spec.method.toUpperCase()} ${spec.path}`;
    it.skipIf(!selected(name))(
      `${name} (socket)`,
      async () => {
        const stats = await fuzzRoute(f, spec, sendOverSocket, Math.ceil(runs() / 5));
        expect(stats.tried).toBeGreaterThanOrEqual(Math.ceil(runs() / 5));
      },
      deadline(120_000),
    );
  }
});
