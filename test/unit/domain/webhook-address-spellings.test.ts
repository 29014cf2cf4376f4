/**
 * Every spelling of a forbidden address is refused when an endpoint is written (docs/webhooks.md#safety):
 * the URL parser rewrites some of them (`[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`, `2130706433`
 * becomes `127.0.0.1`), and an IPv6 address that carries an IPv4 one is judged as that IPv4 address.
 */
import { describe, expect, it } from "vitest";
import { addressKind, refusedUrl, type UrlRules } from "../../../src/domain/webhook-address.js";

const ADMIN: UrlRules = { allow: { loopback: false, linkLocal: false, plainHttp: true }, selfPort: 8080 };
const LENIENT: UrlRules = { allow: { loopback: true, linkLocal: true, plainHttp: true }, selfPort: 8080 };

/** [host as written in the URL, what it is, the refusal's words] */
const SPELLINGS: Array<[string, string, RegExp]> = [
  ["[::ffff:127.0.0.1]", "IPv4-mapped, dotted", /loopback/],
  ["[::ffff:7f00:1]", "IPv4-mapped, hex", /loopback/],
  ["[0:0:0:0:0:ffff:7f00:1]", "IPv4-mapped, uncompressed", /loopback/],
  ["[::FFFF:7F00:1]", "IPv4-mapped, upper case", /loopback/],
  ["[::ffff:0:127.0.0.1]", "IPv4-translated (SIIT)", /loopback/],
  ["[::127.0.0.1]", "IPv4-compatible", /loopback/],
  ["[::7f00:1]", "IPv4-compatible, hex", /loopback/],
  ["[64:ff9b::127.0.0.1]", "NAT64", /loopback/],
  ["[64:ff9b::7f00:1]", "NAT64, hex", /loopback/],
  ["[2002:7f00:1::]", "6to4", /loopback/],
  ["[2002:7f00:1:2:3:4:5:6]", "6to4, with a host part", /loopback/],
  ["2130706433", "decimal", /loopback/],
  ["0177.0.0.1", "octal", /loopback/],
  ["0x7f.1", "hex, short", /loopback/],
  ["0x7f000001", "hex", /loopback/],
  ["127.1", "short", /loopback/],
  ["127.0.0.1.", "trailing dot", /loopback/],
  ["localhost.", "name, trailing dot", /loopback/],
  ["LOCALHOST", "name, upper case", /loopback/],
  ["api.localhost.", "subdomain of localhost, trailing dot", /loopback/],
  ["[::ffff:169.254.169.254]", "metadata, IPv4-mapped", /metadata/],
  ["[::ffff:a9fe:a9fe]", "metadata, IPv4-mapped hex", /metadata/],
  ["[64:ff9b::a9fe:a9fe]", "metadata, NAT64", /metadata/],
  ["[2002:a9fe:a9fe::]", "metadata, 6to4", /metadata/],
  ["[::169.254.169.254]", "metadata, IPv4-compatible", /metadata/],
  ["2852039166", "metadata, decimal", /metadata/],
  ["0251.0376.0251.0376", "metadata, octal", /metadata/],
  ["[::ffff:100.100.100.200]", "Alibaba metadata, IPv4-mapped", /metadata/],
  ["[::ffff:6464:64c8]", "Alibaba metadata, IPv4-mapped hex", /metadata/],
  ["[::ffff:168.63.129.16]", "Azure wire server, IPv4-mapped", /metadata/],
  ["[64:ff9b::a83f:8110]", "Azure wire server, NAT64", /metadata/],
  ["[fd00:ec2:0:0:0:0:0:254]", "AWS metadata over IPv6, uncompressed", /metadata/],
  ["metadata.google.internal.", "metadata name, trailing dot", /metadata/],
  ["[::ffff:169.254.3.4]", "link-local, IPv4-mapped", /link-local/],
  ["[fe80:0:0:0:0:0:0:1]", "link-local IPv6, uncompressed", /link-local/],
  ["[febf::1]", "link-local IPv6, end of fe80::/10", /link-local/],
  ["[::ffff:0.0.0.0]", "unspecified, IPv4-mapped", /not an address to send to/],
  ["0", "unspecified, decimal", /not an address to send to/],
  ["[::]", "unspecified IPv6", /not an address to send to/],
];

describe("every spelling of a forbidden address, when an endpoint is written", () => {
  it.each(SPELLINGS)("refuses %s (%s)", (host, _what, words) => {
    expect(refusedUrl(`http://${host}:9000/hook`, ADMIN)).toMatch(words);
  });

  it.each(SPELLINGS.filter(([, , w]) => /loopback/.test(w.source)))(
    "refuses %s (%s) on the agent's own port even where loopback is allowed",
    (host) => {
      expect(refusedUrl(`http://${host}:8080/hook`, LENIENT)).toMatch(/agent itself/);
    },
  );

  it.each(SPELLINGS.filter(([, , w]) => /metadata/.test(w.source)))(
    "refuses %s (%s) whatever the config allows",
    (host) => {
      expect(refusedUrl(`http://${host}/`, LENIENT)).toMatch(/metadata/);
    },
  );

  it("names the IPv4 address an IPv6 spelling carries", () => {
    expect(refusedUrl("https://[::ffff:127.0.0.1]:9000/", ADMIN)).toMatch(
      /^::ffff:7f00:1 \(127\.0\.0\.1\) is/,
    );
  });

  it("still accepts ordinary addresses in every spelling", () => {
    for (const host of [
      "[::ffff:10.1.2.3]",
      "[64:ff9b::a01:203]",
      "[2002:a01:203::]",
      "[2001:db8::7f00:1]",
      "167838211",
      "wms.example.com.",
      "127.0.0.1.example.com",
    ])
      expect([host, refusedUrl(`https://${host}/hook`, ADMIN)]).toEqual([host, undefined]);
  });

  it("reads an address the way the URL parser and the C library do", () => {
    expect(addressKind("2130706433")).toBe("loopback");
    expect(addressKind("0177.0.0.1")).toBe("loopback");
    expect(addressKind("0x7f.1")).toBe("loopback");
    expect(addressKind("127.0.0.1.")).toBe("loopback");
    expect(addressKind("::ffff:7f00:1")).toBe("loopback");
    expect(addressKind("fe80::1%eth0")).toBe("link-local");
    expect(addressKind("1.2.3.4.5")).toBe("other");
    expect(addressKind("256.0.0.1")).toBe("other");
    expect(addressKind("::ffff:1.2.3")).toBe("other");
    expect(addressKind("1::2::3")).toBe("other");
    expect(addressKind("wms.example.com")).toBe("other");
  });
});
