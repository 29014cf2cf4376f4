/**
 * The station API over HTTPS (`http.tls`), on real sockets with a certificate made at test time: a
 * client that trusts it is served, plain HTTP on that port is not, idle and silent TLS clients are closed
 * by the same timeouts as on HTTP, a TLS client that never reads is cut by the send deadline, bad files stop the start with the key at fault, and SIGHUP takes a
 * renewed certificate.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect as netConnect } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { failureLine } from "../../../src/start-error.js";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { makeCertificate } from "../../support/certificates.js";
import { deadline, until } from "../../support/deadline.js";

const cert = makeCertificate();
const ca = readFileSync(cert.certFile);
afterAll(() => rmSync(cert.dir, { recursive: true, force: true }));

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function httpsAgent(http: Record<string, unknown> = {}): Promise<number> {
  const tls = { certFile: cert.certFile, keyFile: cert.keyFile };
  t = await startTestAgent({ http: { host: "127.0.0.1", port: 0, tls, ...http } }, { listen: true });
  return t.agent.address?.port as number;
}

/** GET over HTTPS trusting `ca`: the status and the fingerprint of the certificate the server showed. */
function getTls(
  port: number,
  path: string,
  trust = ca,
): Promise<{ status: number; fingerprint: string; setCookie: string[] }> {
  return new Promise((ok, fail) => {
    const req = httpsRequest({ host: "localhost", port, path, ca: trust, agent: false }, (res) => {
      const fingerprint = (res.socket as import("node:tls").TLSSocket).getPeerCertificate().fingerprint256;
      const setCookie = res.headers["set-cookie"] ?? [];
      res.resume();
      res.once("end", () => ok({ status: res.statusCode as number, fingerprint, setCookie }));
    });
    req.once("error", fail);
    req.end();
  });
}

describe("HTTPS for the station API", () => {
  it("serves a client that trusts the certificate, and refuses one that does not", async () => {
    const port = await httpsAgent();
    expect((await getTls(port, "/healthz")).status).toBe(200);
    const other = readFileSync(makeCertificate(cert.dir, "other").certFile);
    await expect(getTls(port, "/healthz", other)).rejects.toThrow(/self[- ]signed|certificate/i);
  });

  it("marks the operator screen's session cookie Secure", async () => {
    const port = await httpsAgent();
    const keys = JSON.parse(readFileSync(join(t?.dir as string, SCREEN_KEYS_FILE), "utf8")) as Record<
      string,
      string
    >;
    const res = await getTls(port, `/screen/front?key=${encodeURIComponent(keys.front as string)}`);
    expect(res.status).toBe(303);
    expect(res.setCookie[0]).toMatch(/^pps_screen_front=[\w-]+;.*; Secure/);
  });

  it("answers nothing to plain HTTP on its port", async () => {
    const port = await httpsAgent();
    const plain = new Promise<number>((ok, fail) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) =>
        ok(res.statusCode as number),
      );
      req.once("error", fail);
      req.end();
    });
    await expect(plain).rejects.toThrow(/socket hang up|ECONNRESET|Parse Error/);
  });

  it(
    "closes a client that never says hello and one that never sends its headers, like on HTTP",
    async () => {
      const port = await httpsAgent({ headersTimeoutMs: 500, requestTimeoutMs: 1000 });
      const started = performance.now();
      const silent = netConnect(port, "127.0.0.1");
      silent.on("error", () => {});
      silent.on("data", () => {});
      const silentClosed = new Promise<number>((ok) => silent.once("close", () => ok(performance.now())));
      const idle = tlsConnect({ host: "127.0.0.1", port, servername: "localhost", ca });
      idle.on("error", () => {});
      idle.on("data", () => {});
      await new Promise<void>((ok) => idle.once("secureConnect", () => ok()));
      idle.write("GET /healthz HTTP/1.1\r\nHost: station\r\nX-Slow: ");
      const idleClosed = new Promise<number>((ok) => idle.once("close", () => ok(performance.now())));
      // served meanwhile
      expect((await getTls(port, "/healthz")).status).toBe(200);
      const slowest = Math.max(await silentClosed, await idleClosed) - started;
      expect(slowest).toBeLessThan(deadline(3000));
    },
    deadline(15_000),
  );

  it("a 413 says Connection: close and the socket ends, as on HTTP; over http.maxConnections is refused", async () => {
    const port = await httpsAgent({ bodyLimitBytes: 1024, maxConnections: 3 });
    const answer = await new Promise<{ status: number; connection?: string }>((ok, fail) => {
      const req = httpsRequest(
        {
          host: "localhost",
          port,
          ca,
          method: "POST",
          path: "/api-gateway/mdm-service/wms-masterdata/catalog",
          headers: { "Content-Type": "application/json", "Content-Length": 4096 },
        },
        (res) => {
          res.resume();
          res.once("end", () => ok({ status: res.statusCode as number, connection: res.headers.connection }));
        },
      );
      req.once("error", fail);
      req.write("x".repeat(100)); // the rest of the declared body never comes
    });
    expect(answer).toEqual({ status: 413, connection: "close" });
    const held = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<import("node:tls").TLSSocket>((ok) => {
            const s = tlsConnect({ host: "127.0.0.1", port, servername: "localhost", ca }, () => ok(s));
            s.on("error", () => {});
          }),
      ),
    );
    await expect(getTls(port, "/healthz")).rejects.toThrow();
    for (const s of held) s.destroy();
  });

  it(
    "a TLS client that never reads its answers is closed by the send deadline, as on HTTP",
    async () => {
      const port = await httpsAgent({ sendTimeoutMs: 1000 });
      const metric = async (reason: string) => {
        const text = (await (await t?.request("/metrics", SCRAPE))?.text()) ?? "";
        const m = new RegExp(`budget_refusals_total\\{reason="${reason}"\\} (\\d+)`).exec(text);
        return m ? Number(m[1]) : 0;
      };
      const get = "GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n";
      const reader = await new Promise<import("node:tls").TLSSocket>((ok) => {
        const s = tlsConnect({ host: "127.0.0.1", port, servername: "localhost", ca }, () => ok(s));
        s.on("error", () => {});
      });
      reader.pause();
      reader.write(get.repeat(40));
      const closed = new Promise<void>((ok) => reader.once("close", () => ok()));
      await until(
        "the TLS never-reader cut by the send deadline",
        async () => (await metric("http_send_timeout")) >= 1,
        20_000,
      );
      reader.resume(); // its end can now be seen
      await closed;
      // a client that reads is served after it
      expect((await getTls(port, "/healthz")).status).toBe(200);
    },
    deadline(30_000),
  );

  it("takes a renewed certificate on SIGHUP, and keeps the old one when the new files do not read", async () => {
    const live = makeCertificate(cert.dir, "live");
    const port = await httpsAgent({ tls: { certFile: live.certFile, keyFile: live.keyFile } });
    const before = await getTls(port, "/healthz", readFileSync(live.certFile));
    const renewed = makeCertificate(cert.dir, "renewed");
    copyFileSync(renewed.certFile, live.certFile);
    copyFileSync(renewed.keyFile, live.keyFile);
    process.emit("SIGHUP", "SIGHUP");
    const after = await getTls(port, "/healthz", readFileSync(renewed.certFile));
    expect(after.fingerprint).not.toBe(before.fingerprint);
    writeFileSync(live.keyFile, "not a key");
    process.emit("SIGHUP", "SIGHUP");
    expect((await getTls(port, "/healthz", readFileSync(renewed.certFile))).fingerprint).toBe(
      after.fingerprint,
    );
  });
});

describe("bad certificate files stop the start with the key and the file", () => {
  async function startLine(tls: Record<string, string>): Promise<string> {
    const attempt = startTestAgent({ http: { host: "127.0.0.1", port: 0, tls } }, { listen: true });
    return attempt.then(
      async (agent) => {
        await agent.close();
        return "started";
      },
      (e: unknown) => failureLine(e, true),
    );
  }

  it("names an unreadable certificate file", async () => {
    const line = await startLine({ certFile: `${cert.dir}/missing.crt`, keyFile: cert.keyFile });
    expect(line).toBe(
      `pps-edge: cannot start: cannot read ${cert.dir}/missing.crt (ENOENT) (http.tls.certFile): fix the path, or let the agent's user read the file`,
    );
  });

  it("names a certificate that is not PEM, a key that is not a key, and a key of another certificate", async () => {
    const junk = `${cert.dir}/junk.pem`;
    writeFileSync(junk, "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n");
    expect(await startLine({ certFile: junk, keyFile: cert.keyFile })).toMatch(
      new RegExp(`^pps-edge: cannot start: ${junk} is not a PEM certificate \\(http\\.tls\\.certFile\\): `),
    );
    expect(await startLine({ certFile: cert.certFile, keyFile: junk })).toMatch(
      /is not a PEM private key without a passphrase \(http\.tls\.keyFile\): /,
    );
    const other = makeCertificate(cert.dir, "mismatch");
    expect(await startLine({ certFile: cert.certFile, keyFile: other.keyFile })).toMatch(
      new RegExp(`${other.keyFile} is not the key of ${cert.certFile} .*\\(http\\.tls\\.keyFile\\): `),
    );
  });
});
