import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressAllowance } from "../../../src/domain/webhook-address.js";
import {
  type CarrierFetchOptions,
  createCarrierLabelFetch,
} from "../../../src/labels/carrier-label-fetch.js";
import { guardedLookup, type Resolve } from "../../../src/webhook-delivery/address-guard.js";
import {
  answers,
  type CarrierLabelServer,
  startCarrierLabelServer,
} from "../../support/carrier-label-server.js";

let s: CarrierLabelServer;
const log = pino({ level: "silent" });
const loopback: AddressAllowance = { loopback: true, linkLocal: false };

function fetcher(over: Partial<CarrierFetchOptions> = {}) {
  const allow = over.rules?.allow ?? loopback;
  return createCarrierLabelFetch({
    rules: { allowHosts: ["localhost"], allowHttp: false, allow },
    ca: s.ca,
    timeoutMs: 10_000,
    maxBytes: 256 * 1024,
    lookup: guardedLookup(allow),
    log,
    ...over,
  });
}

/** Why a fetch failed (it must fail). */
async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return (err as Error).message;
}

beforeAll(async () => {
  s = await startCarrierLabelServer();
  s.serve("/slow.pdf", answers.slow(60_000, answers.send("application/pdf", Buffer.from("%PDF-1.7\n"))));
  s.serve(
    "/html-as-png",
    answers.send("image/png", "<!DOCTYPE html><html><body>Session expired</body></html>"),
  );
  s.serve("/pdf-as-html", (req, res) => answers.send("text/html", s.pdf)(req, res));
  s.serve("/stall.pdf", (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf" });
    res.write("%PDF-1.7\n");
  });
  s.serve("/big.pdf", answers.stream(4 * 1024 * 1024));
  s.serve("/big-declared.pdf", (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf", "content-length": 10_000_000 });
    res.write("%PDF-1.7\n");
  });
  s.serve("/moved", answers.redirect("/label.zpl"));
  s.serve("/away", (_req, res) => answers.redirect(`${s.originByAddress}/label.pdf`)(_req, res));
  s.serve("/loop", answers.redirect("/loop"));
});
afterAll(async () => s.close());

describe("fetching a carrier's label", () => {
  it("gets PDF, ZPL and PNG as served, by their type checked against their content", async () => {
    const f = fetcher();
    const pdf = await f(`${s.origin}/label.pdf?token=secret`);
    expect(pdf.format).toBe("pdf");
    expect(Buffer.from(pdf.bytes).equals(Buffer.from(s.pdf))).toBe(true);
    const zpl = await f(`${s.origin}/label.zpl`);
    expect(zpl).toMatchObject({ format: "zpl", status: 200, host: "localhost" });
    expect(Buffer.from(zpl.bytes).equals(Buffer.from(s.zpl))).toBe(true);
    const png = await f(`${s.origin}/label.png`);
    expect(png.format).toBe("png");
    expect(png.bytes.length).toBe(s.png.length);
  });

  it("logs each fetch with its host, status, bytes and time, and the URL without its query", async () => {
    const lines: string[] = [];
    const logged = pino({ level: "info" }, { write: (l: string) => void lines.push(l) });
    await fetcher({ log: logged })(`${s.origin}/label.zpl?token=s3cret&x=1`);
    await refusal(fetcher({ log: logged })(`${s.origin}/gone.pdf?token=s3cret`));
    expect(lines.join("")).not.toContain("s3cret");
    const [ok, failed] = lines.map((l) => JSON.parse(l));
    expect(ok).toMatchObject({
      msg: "carrier label fetched",
      host: `localhost:${s.port}`,
      url: `${s.origin}/label.zpl`,
      status: 200,
      bytes: s.zpl.length,
      ms: expect.any(Number),
    });
    expect(failed).toMatchObject({
      msg: "carrier label not fetched",
      host: `localhost:${s.port}`,
      status: 404,
      url: `${s.origin}/gone.pdf`,
      cause: expect.stringMatching(/answered 404 Not Found$/),
    });
  });

  it("refuses a slow carrier at the timeout, which covers the whole fetch", async () => {
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${s.origin}/slow.pdf`))).toBe(
      "the carrier's label could not be fetched: no label within 300 ms (printing.carrierLabels.timeoutMs)",
    );
    // a body that starts and stalls: the same deadline covers the reading
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${s.origin}/stall.pdf`))).toBe(
      "the carrier's label could not be fetched: no label within 300 ms (printing.carrierLabels.timeoutMs)",
    );
  });

  it("refuses content that is not what its type says, in words", async () => {
    const f = fetcher();
    expect(await refusal(f(`${s.origin}/html-as-png`))).toBe(
      "the carrier's label could not be fetched: the carrier served image/png that is HTML, not a PNG",
    );
    expect(await refusal(f(`${s.origin}/pdf-as-html`))).toBe(
      "the carrier's label could not be fetched: the carrier served text/html, not a label",
    );
  });

  it("refuses a label larger than the limit while reading it, with or without a declared length", async () => {
    const f = fetcher();
    const words =
      "the carrier's label could not be fetched: it is larger than 262144 bytes (printing.carrierLabels.maxBytes)";
    expect(await refusal(f(`${s.origin}/big.pdf`))).toBe(words);
    expect(await refusal(f(`${s.origin}/big-declared.pdf`))).toBe(words);
  });

  it("names the status of an answer that is not the label", async () => {
    expect(await refusal(fetcher()(`${s.origin}/gone.pdf`))).toMatch(
      /^the carrier's label could not be fetched: localhost:\d+ answered 404 Not Found$/,
    );
  });

  it("follows a redirect to an allowed host, refuses one to another host, and stops after three", async () => {
    const moved = await fetcher()(`${s.origin}/moved`);
    expect(moved.format).toBe("zpl");
    expect(await refusal(fetcher()(`${s.origin}/away`))).toBe(
      "the carrier's label could not be fetched: redirected, and 127.0.0.1 is not an allowed carrier label host (printing.carrierLabels.allowHosts)",
    );
    expect(await refusal(fetcher()(`${s.origin}/loop`))).toBe(
      "the carrier's label could not be fetched: more than 3 redirects",
    );
  });

  it("refuses a host not on the allow-list, an empty list, http:// and loopback not allowed", async () => {
    expect(await refusal(fetcher()(`${s.originByAddress}/label.pdf`))).toBe(
      "the carrier's label could not be fetched: 127.0.0.1 is not an allowed carrier label host (printing.carrierLabels.allowHosts)",
    );
    const none = fetcher({ rules: { allowHosts: [], allowHttp: false, allow: loopback } });
    expect(await refusal(none(`${s.origin}/label.pdf`))).toBe(
      "the carrier's label could not be fetched: no carrier label host is allowed (printing.carrierLabels.allowHosts is empty)",
    );
    expect(await refusal(fetcher()(`http://localhost:${s.port}/label.pdf`))).toBe(
      "the carrier's label could not be fetched: http:// is not encrypted; use https://, or allow it with printing.carrierLabels.allowHttp",
    );
    const closed: AddressAllowance = {
      loopback: false,
      linkLocal: false,
      keys: {
        loopback: "printing.carrierLabels.allowLoopback",
        linkLocal: "printing.carrierLabels.allowLinkLocal",
      },
    };
    const guarded = fetcher({ rules: { allowHosts: ["localhost"], allowHttp: false, allow: closed } });
    expect(await refusal(guarded(`${s.origin}/label.pdf`))).toBe(
      "the carrier's label could not be fetched: 127.0.0.1 is this computer (loopback); allow it with printing.carrierLabels.allowLoopback",
    );
  });

  it("judges every address a name resolves to at connect time, with the webhooks' guard", async () => {
    // a carrier's name that resolves to this computer (DNS rebinding): refused as it connects
    const resolve: Resolve = (_host, _opts, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]);
    const closed: AddressAllowance = { loopback: false, linkLocal: false };
    const f = fetcher({
      rules: { allowHosts: ["*.carrier.test"], allowHttp: false, allow: closed },
      lookup: guardedLookup(closed, undefined, resolve),
    });
    expect(await refusal(f(`https://labels.carrier.test:${s.port}/label.pdf`))).toBe(
      "the carrier's label could not be fetched: labels.carrier.test: 127.0.0.1 is this computer (loopback); allow it with webhooks.allow.loopback",
    );
  });

  it("verifies the certificate: untrusted without the CA file, and for the host it was made for", async () => {
    expect(await refusal(fetcher({ ca: undefined })(`${s.origin}/label.pdf`))).toMatch(
      /^the carrier's label could not be fetched: the certificate of localhost:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); its CA can be added with printing.carrierLabels.caFile$/,
    );
    const resolve: Resolve = (_host, _opts, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]);
    const f = fetcher({
      rules: { allowHosts: ["*.carrier.test"], allowHttp: false, allow: loopback },
      lookup: guardedLookup(loopback, undefined, resolve),
    });
    expect(await refusal(f(`https://labels.carrier.test:${s.port}/label.pdf`))).toMatch(
      /is not trusted \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    );
  });
});
