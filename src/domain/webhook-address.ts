/**
 * Where a webhook may go (docs/webhooks.md#safety). An endpoint URL is typed by an admin, so without a
 * check it could make the agent post into places only the agent can reach: the agent itself, the cloud
 * metadata service (credentials), or link-local devices. Pure: the shell (webhook-delivery/address-guard.ts)
 * applies the same check to every address a host name resolves to, at connect time, so a name that
 * resolves somewhere else later (DNS rebinding) is refused as well.
 *
 * An address is judged by what it reaches, whatever its spelling: IPv4 text is read as the URL parser
 * and the C library read it (decimal, octal, hex, short forms, a trailing dot), and an IPv6 address that
 * carries an IPv4 one (mapped, translated, compatible, NAT64, 6to4) is judged as that IPv4 address.
 */
export type AddressKind = "loopback" | "link-local" | "metadata" | "unspecified" | "other";

/** What the config allows beyond ordinary addresses (`webhooks.allow`). */
export interface AddressAllowance {
  loopback: boolean;
  linkLocal: boolean;
  /** The config keys that allow each, named in a refusal (default `webhooks.allow.*`; carrier labels have their own). */
  keys?: { loopback: string; linkLocal: string } | undefined;
}

/** Cloud metadata services that are not in 169.254.0.0/16: Alibaba, Azure's wire server. */
const METADATA_IPV4 = new Set(["100.100.100.200", "168.63.129.16"]);
/** AWS's metadata service over IPv6, fd00:ec2::254, as its eight groups. */
const METADATA_IPV6 = [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(":");
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data"]);

/**
 * One part of an IPv4 address as the WHATWG URL standard's IPv4 number parser (and inet_aton) read it:
 * `0x` hex, a leading `0` octal, else decimal.
 */
function ipv4Number(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return Number.parseInt(part.slice(1), 8);
  if (/^(0|[1-9]\d*)$/.test(part)) return Number(part);
  return undefined;
}

/** The four bytes of an IPv4 address in any spelling the URL parser accepts (`127.1`, `0x7f000001`). */
function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length > 4 || parts.some((p) => p.length > 34)) return undefined;
  const numbers = parts.map(ipv4Number);
  if (numbers.some((n) => n === undefined)) return undefined;
  const head = numbers.slice(0, -1) as number[];
  const last = numbers.at(-1) as number;
  if (head.some((n) => n > 255) || last >= 256 ** (4 - head.length)) return undefined;
  const value = head.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last);
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256);
}

/** The groups of one side of `::`; an IPv4 tail (`::ffff:127.0.0.1`) only where `tail` allows it. */
function ipv6Words(side: string, tail: boolean): number[] | undefined {
  if (side === "") return [];
  const words = side.split(":");
  const groups: number[] = [];
  for (const [i, w] of words.entries()) {
    const dotted =
      tail && i === words.length - 1 ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(w) : null;
    if (dotted) {
      const q = dotted.slice(1).map(Number);
      if (q.some((n) => n > 255)) return undefined;
      groups.push((q[0] as number) * 256 + (q[1] as number), (q[2] as number) * 256 + (q[3] as number));
    } else if (/^[0-9a-f]{1,4}$/i.test(w)) groups.push(Number.parseInt(w, 16));
    else return undefined;
  }
  return groups;
}

/** The eight groups of an IPv6 address (its zone `%eth0` aside), or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const ip = text.replace(/%.*$/, "");
  if (!ip.includes(":")) return undefined;
  const halves = ip.split("::");
  if (halves.length > 2) return undefined;
  const left = ipv6Words(halves[0] as string, halves.length === 1);
  const right = halves.length === 2 ? ipv6Words(halves[1] as string, true) : [];
  if (!left || !right) return undefined;
  if (halves.length === 1) return left.length === 8 ? left : undefined;
  const zeros = 8 - left.length - right.length;
  return zeros < 1 ? undefined : [...left, ...new Array<number>(zeros).fill(0), ...right];
}

const bytesOf = (high: number, low: number): number[] => [high >> 8, high & 255, low >> 8, low & 255];
const zero = (groups: number[], from: number, to: number): boolean =>
  groups.slice(from, to).every((g) => g === 0);

/**
 * The IPv4 address an IPv6 address carries, where one reaches it: IPv4-mapped `::ffff:0:0/96` and
 * -translated `::ffff:0:0:0/96` (RFC 4291 §2.5.5.2, RFC 2765), -compatible `::/96` (RFC 4291 §2.5.5.1),
 * NAT64's well-known prefix `64:ff9b::/96` (RFC 6052 §2.1) and 6to4's `2002::/16` (RFC 3056 §2).
 */
function embeddedIpv4(g: number[]): number[] | undefined {
  const [a, b, c, , e, f, h, l] = g as [number, number, number, number, number, number, number, number];
  if (zero(g, 0, 5) && f === 0xffff) return bytesOf(h, l);
  if (zero(g, 0, 4) && e === 0xffff && f === 0) return bytesOf(h, l);
  if (a === 0x64 && b === 0xff9b && zero(g, 2, 6)) return bytesOf(h, l);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses
  if (zero(g, 0, 6) && !(h === 0 && l <= 1)) return bytesOf(h, l);
  if (a === 0x2002) return bytesOf(b, c);
  return undefined;
}

/** An address read from its text: the IPv4 address it reaches, else its IPv6 groups. */
interface Read {
  ipv4?: number[];
  ipv6?: number[];
}

function read(address: string): Read | undefined {
  const text = address.replace(/^\[|\]$/g, "").toLowerCase();
  const ipv6 = ipv6Groups(text);
  if (ipv6) {
    const ipv4 = embeddedIpv4(ipv6);
    return ipv4 ? { ipv4 } : { ipv6 };
  }
  const ipv4 = ipv4Bytes(text);
  return ipv4 ? { ipv4 } : undefined;
}

/** Whether the text is an IP address (in any spelling), rather than a name to resolve. */
export const isIpAddress = (text: string): boolean => read(text) !== undefined;

/** One key per address reached: `::ffff:7f00:1`, `0x7f.1` and `127.0.0.1` share `127.0.0.1`. */
export function addressKey(address: string): string {
  const r = read(address);
  if (r?.ipv4) return r.ipv4.join(".");
  if (r?.ipv6) return r.ipv6.map((g) => g.toString(16)).join(":");
  return address.toLowerCase();
}

function ipv4Kind([a, b, c, d]: number[]): AddressKind {
  if (a === 169 && b === 254) return c === 169 && d === 254 ? "metadata" : "link-local";
  if (METADATA_IPV4.has([a, b, c, d].join("."))) return "metadata";
  if (a === 127) return "loopback";
  // 0.0.0.0/8, "this network" (RFC 1122 §3.2.1.3): 0.0.0.0 reaches this computer on Linux
  if (a === 0) return "unspecified";
  return "other";
}

function ipv6Kind(g: number[]): AddressKind {
  if (g.join(":") === METADATA_IPV6) return "metadata";
  if (zero(g, 0, 7) && g[7] === 1) return "loopback";
  if (zero(g, 0, 8)) return "unspecified";
  if (((g[0] as number) & 0xffc0) === 0xfe80) return "link-local";
  return "other";
}

export function addressKind(address: string): AddressKind {
  const r = read(address);
  if (r?.ipv4) return ipv4Kind(r.ipv4);
  if (r?.ipv6) return ipv6Kind(r.ipv6);
  return "other";
}

/** The address as given, and the IPv4 address it reaches where that is spelled otherwise. */
function shown(address: string): string {
  const key = addressKey(address);
  const text = address.replace(/^\[|\]$/g, "").toLowerCase();
  return key !== text && read(address)?.ipv4 ? `${text} (${key})` : address;
}

/**
 * Why an address may not be posted to, or undefined when it may. Metadata services never. With `own`
 * (the URL's port is the agent's own HTTP port), this computer's addresses are refused too: a URL to
 * one would post the station's stream into the agent itself.
 */
export function refusedAddress(
  address: string,
  allow: AddressAllowance,
  own?: Iterable<string>,
): string | undefined {
  const key = addressKey(address);
  const what = shown(address);
  for (const a of own ?? [])
    if (addressKey(a) === key) return `${what} is this computer, on the agent's own port`;
  const kind = addressKind(address);
  if (kind === "metadata") return `${what} is a cloud metadata address`;
  if (kind === "unspecified") return `${what} is not an address to send to`;
  if (kind === "loopback" && !allow.loopback)
    return `${what} is this computer (loopback); allow it with ${allow.keys?.loopback ?? "webhooks.allow.loopback"}`;
  if (kind === "link-local" && !allow.linkLocal)
    return `${what} is link-local; allow it with ${allow.keys?.linkLocal ?? "webhooks.allow.linkLocal"}`;
  return undefined;
}

export interface UrlRules {
  allow: AddressAllowance & { plainHttp: boolean };
  /** The agent's own HTTP port: a URL to it on this computer would post the station's stream into itself. */
  selfPort: number;
}

/** Why a webhook URL is refused (checked when an endpoint is written), or undefined when it is fine. */
export function refusedUrl(raw: string, rules: UrlRules): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "only https:// (or http://) URLs";
  if (url.username || url.password) return "no user or password in the URL: the signature authenticates";
  if (url.hash) return "no #fragment";
  // a fully qualified name ends in a dot: `localhost.` is `localhost`
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.+$/, "");
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata service`;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const named = host === "localhost" || host.endsWith(".localhost");
  const literal = isIpAddress(host);
  const local = named || (literal && addressKind(host) === "loopback");
  if (local && port === rules.selfPort) return "that is the agent itself (its own HTTP port)";
  const address = named
    ? refusedAddress("127.0.0.1", rules.allow)
    : literal
      ? refusedAddress(host, rules.allow)
      : undefined;
  if (address) return address;
  if (url.protocol === "http:" && !rules.allow.plainHttp)
    return "http:// is not encrypted; use https://, or allow it with webhooks.allow.plainHttp";
  return undefined;
}
