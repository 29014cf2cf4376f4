import { describe, expect, it } from "vitest";
import { conversionFor } from "../../../src/labels/carrier-label-conversion.js";
import { carrierLabelFormat, sniff } from "../../../src/labels/carrier-label-format.js";
import { checkCarrierUrl, hostAllowed, urlForLog } from "../../../src/labels/carrier-label-url.js";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));
const PDF = bytes("%PDF-1.7\n%âãÏÓ\n1 0 obj");
const ZPL = bytes("^XA^FO50,50^FDHello^FS^XZ");

describe("the format of a carrier's answer", () => {
  it("tells PDF, PNG, ZPL and HTML by their first bytes", () => {
    expect(sniff(PDF)).toBe("pdf");
    expect(sniff(PNG)).toBe("png");
    expect(sniff(ZPL)).toBe("zpl");
    expect(sniff(new Uint8Array(Buffer.from("\uFEFF\r\n  ^xa^fdlower^fs^xz", "utf8")))).toBe("zpl");
    expect(sniff(bytes("~DGR:LOGO.GRF,4,1,FF\n^XA^XGR:LOGO.GRF^FS^XZ"))).toBe("zpl");
    expect(sniff(bytes("<!DOCTYPE html><html>"))).toBe("html");
    expect(sniff(bytes("hello"))).toBeUndefined();
  });

  it("takes the type's format when the content is that format", () => {
    expect(carrierLabelFormat("application/pdf", PDF)).toEqual({ format: "pdf" });
    expect(carrierLabelFormat("image/png", PNG)).toEqual({ format: "png" });
    expect(carrierLabelFormat("application/zpl; charset=utf-8", ZPL)).toEqual({ format: "zpl" });
    expect(carrierLabelFormat("text/plain", ZPL)).toEqual({ format: "zpl" });
    expect(carrierLabelFormat("application/x-zpl", ZPL)).toEqual({ format: "zpl" });
    expect(carrierLabelFormat("Application/PDF", PDF)).toEqual({ format: "pdf" });
    // an octet stream is judged by its content alone
    expect(carrierLabelFormat("application/octet-stream", PNG)).toEqual({ format: "png" });
  });

  it("refuses a mismatch, an unknown type and no type, in words", () => {
    expect(carrierLabelFormat("image/png", bytes("<!DOCTYPE html><p>login"))).toEqual({
      refused: "the carrier served image/png that is HTML, not a PNG",
    });
    expect(carrierLabelFormat("text/html", PDF)).toEqual({
      refused: "the carrier served text/html, not a label",
    });
    expect(carrierLabelFormat("application/pdf", ZPL)).toEqual({
      refused: "the carrier served application/pdf that is ZPL, not a PDF",
    });
    expect(carrierLabelFormat("text/plain", bytes("Service unavailable"))).toEqual({
      refused: "the carrier served text/plain that is not a label",
    });
    expect(carrierLabelFormat(undefined, PDF)).toEqual({
      refused: "the carrier served no Content-Type, not a label",
    });
    expect(carrierLabelFormat("application/octet-stream", bytes("junk"))).toEqual({
      refused: "the carrier served application/octet-stream that is neither a PDF, a PNG nor ZPL",
    });
  });
});

describe("where a carrier label may come from", () => {
  const rules = {
    allowHosts: ["labels.carrier.example", "*.cdn.example"],
    allowHttp: false,
    allow: { loopback: false, linkLocal: false },
  };
  it("matches hosts exactly, and a wildcard's subdomains only", () => {
    expect(hostAllowed("labels.carrier.example", rules.allowHosts)).toBe(true);
    expect(hostAllowed("x.labels.carrier.example", rules.allowHosts)).toBe(false);
    expect(hostAllowed("a.cdn.example", rules.allowHosts)).toBe(true);
    expect(hostAllowed("a.b.cdn.example", rules.allowHosts)).toBe(true);
    expect(hostAllowed("cdn.example", rules.allowHosts)).toBe(false);
    expect(hostAllowed("evilcdn.example", rules.allowHosts)).toBe(false);
  });
  it("accepts an allowed https URL, a final dot and any case", () => {
    expect(checkCarrierUrl("https://LABELS.carrier.example./l/1.pdf", rules)).toHaveProperty("url");
  });
  it("refuses other schemes, http, credentials, other hosts and forbidden addresses", () => {
    const why = (u: string, r = rules) => (checkCarrierUrl(u, r) as { refused?: string }).refused;
    expect(why("ftp://labels.carrier.example/1")).toBe("ftp: URLs are not fetched (https:// only)");
    expect(why("not a url")).toBe("the carrier label URL is not a URL");
    expect(why("http://labels.carrier.example/1")).toMatch(/printing.carrierLabels.allowHttp$/);
    expect(why("https://u:p@labels.carrier.example/1")).toBe("no user or password in a carrier label URL");
    expect(why("https://other.example/1")).toBe(
      "other.example is not an allowed carrier label host (printing.carrierLabels.allowHosts)",
    );
    const open = { ...rules, allowHosts: ["169.254.169.254", "127.0.0.1", "localhost"] };
    expect(why("https://169.254.169.254/latest", open)).toBe("169.254.169.254 is a cloud metadata address");
    expect(why("https://0x7f.1/l.pdf", open)).toMatch(/^127.0.0.1 is this computer \(loopback\)/);
    expect(why("https://localhost/l.pdf", open)).toMatch(/loopback/);
  });
  it("logs the origin and path, never the query", () => {
    expect(urlForLog(new URL("https://labels.carrier.example/l/1.pdf?token=s3cret#x"))).toBe(
      "https://labels.carrier.example/l/1.pdf",
    );
  });
});

describe("what the printer is sent", () => {
  it("as served when the printer takes it; PNG drawn in the printer's own format", () => {
    expect(conversionFor("pdf", ["pdf"])).toEqual({ conversion: "as-is" });
    expect(conversionFor("zpl", ["zpl"])).toEqual({ conversion: "as-is" });
    expect(conversionFor("png", ["pdf"])).toEqual({ conversion: "png-to-pdf" });
    expect(conversionFor("png", ["zpl"])).toEqual({ conversion: "png-to-zpl" });
    // the file printer takes all three, its own being PDF
    expect(conversionFor("zpl", ["pdf", "zpl", "png"])).toEqual({ conversion: "as-is" });
    expect(conversionFor("png", ["pdf", "zpl", "png"])).toEqual({ conversion: "png-to-pdf" });
  });
  it("refuses PDF to a ZPL printer and ZPL to a PDF printer, in words", () => {
    expect(conversionFor("zpl", ["pdf"])).toEqual({
      refused: "the carrier served ZPL; the printer at this station takes PDF",
    });
    expect(conversionFor("pdf", ["zpl"])).toEqual({
      refused: "the carrier served PDF; the printer at this station takes ZPL",
    });
  });
});
