import { describe, expect, it } from "vitest";
import {
  addressKind,
  refusedAddress,
  refusedUrl,
  type UrlRules,
} from "../../../src/domain/webhook-address.js";

const STRICT: UrlRules = { allow: { loopback: false, linkLocal: false, plainHttp: false }, selfPort: 8080 };
const LENIENT: UrlRules = { allow: { loopback: true, linkLocal: true, plainHttp: true }, selfPort: 8080 };

describe("where a webhook may go", () => {
  it("tells loopback, link-local, metadata and other addresses apart", () => {
    expect(addressKind("127.0.0.1")).toBe("loopback");
    expect(addressKind("127.8.9.10")).toBe("loopback");
    expect(addressKind("::1")).toBe("loopback");
    expect(addressKind("::ffff:127.0.0.1")).toBe("loopback");
    expect(addressKind("169.254.169.254")).toBe("metadata");
    expect(addressKind("fd00:ec2::254")).toBe("metadata");
    expect(addressKind("169.254.3.4")).toBe("link-local");
    expect(addressKind("fe80::1")).toBe("link-local");
    expect(addressKind("0.0.0.0")).toBe("unspecified");
    expect(addressKind("10.1.2.3")).toBe("other");
    expect(addressKind("2001:db8::1")).toBe("other");
  });

  it("never allows a metadata service, whatever the config allows", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://100.100.100.200/",
    ])
      expect([url, refusedUrl(url, LENIENT)]).toEqual([url, expect.stringMatching(/metadata/)]);
    expect(refusedAddress("169.254.169.254", LENIENT.allow)).toMatch(/metadata/);
  });

  it("refuses the agent itself, loopback and link-local unless allowed, and plain HTTP unless allowed", () => {
    expect(refusedUrl("http://127.0.0.1:8080/hook", LENIENT)).toMatch(/agent itself/);
    expect(refusedUrl("https://localhost:8080/hook", LENIENT)).toMatch(/agent itself/);
    expect(refusedUrl("https://127.0.0.1:9000/hook", STRICT)).toMatch(/loopback/);
    expect(refusedUrl("https://localhost:9000/hook", STRICT)).toMatch(/loopback/);
    expect(refusedUrl("https://[fe80::1]/hook", STRICT)).toMatch(/link-local/);
    expect(refusedUrl("http://wms.example.com/hook", STRICT)).toMatch(/http:\/\/ is not encrypted/);
    expect(refusedUrl("https://127.0.0.1:9000/hook", LENIENT)).toBeUndefined();
    expect(refusedUrl("http://wms.example.com/hook", LENIENT)).toBeUndefined();
    expect(refusedUrl("https://wms.example.com/hook", STRICT)).toBeUndefined();
  });

  it("refuses what is not an http(s) URL, credentials in it, and a fragment", () => {
    expect(refusedUrl("ftp://x.example.com/", STRICT)).toMatch(/https/);
    expect(refusedUrl("not a url", STRICT)).toBe("not a URL");
    expect(refusedUrl("https://u:p@x.example.com/", STRICT)).toMatch(/no user or password/);
    expect(refusedUrl("https://x.example.com/#a", STRICT)).toMatch(/fragment/);
  });
});
