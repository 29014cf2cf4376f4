/**
 * Where a webhook may go (docs/webhooks.md#safety). An endpoint URL is typed by an admin, so without a
 * check it could make the agent post into places only the agent can reach: the agent itself, the cloud
 * metadata service (credentials), or link-local devices. Pure: the shell (webhook-delivery/address-guard.ts)
 * applies the same check to every address a host name resolves to, at connect time, so a name that
 * resolves somewhere else later (DNS rebinding) is refused as well.
 */
export type AddressKind = "loopback" | "link-local" | "metadata" | "unspecified" | "other";

/** What the config allows beyond ordinary addresses (`webhooks.allow`). */
export interface AddressAllowance {
  loopback: boolean;
  linkLocal: boolean;
}

/** Cloud metadata services that are not in 169.254.0.0/16: AWS over IPv6, Alibaba, Azure's wire server. */
const METADATA_IPS = new Set(["fd00:ec2::254", "100.100.100.200", "168.63.129.16"]);
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data"]);

function v4(ip: string): number[] | undefined {
  const m = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(ip);
  return m ? m.slice(1).map(Number) : undefined;
}

export function addressKind(address: string): AddressKind {
  const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_IPS.has(ip)) return "metadata";
  const q = v4(ip);
  if (q) {
    if (q[0] === 169 && q[1] === 254) return q[2] === 169 && q[3] === 254 ? "metadata" : "link-local";
    if (q[0] === 127) return "loopback";
    if (q.every((n) => n === 0)) return "unspecified";
    return "other";
  }
  if (ip === "::1") return "loopback";
  if (ip === "::") return "unspecified";
  if (/^fe[89ab][0-9a-f]:/.test(ip)) return "link-local";
  return "other";
}

/** Why an address may not be posted to, or undefined when it may. Metadata services never. */
export function refusedAddress(address: string, allow: AddressAllowance): string | undefined {
  const kind = addressKind(address);
  if (kind === "metadata") return `${address} is a cloud metadata address`;
  if (kind === "unspecified") return `${address} is not an address to send to`;
  if (kind === "loopback" && !allow.loopback)
    return `${address} is this computer (loopback); allow it with webhooks.allow.loopback`;
  if (kind === "link-local" && !allow.linkLocal)
    return `${address} is link-local; allow it with webhooks.allow.linkLocal`;
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
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata service`;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const local = host === "localhost" || host.endsWith(".localhost") || addressKind(host) === "loopback";
  if (local && port === rules.selfPort) return "that is the agent itself (its own HTTP port)";
  const named =
    host === "localhost" || host.endsWith(".localhost")
      ? refusedAddress("127.0.0.1", rules.allow)
      : undefined;
  if (named) return named;
  const literal = v4(host) !== undefined || host.includes(":");
  const address = literal ? refusedAddress(host, rules.allow) : undefined;
  if (address) return address;
  if (url.protocol === "http:" && !rules.allow.plainHttp)
    return "http:// is not encrypted; use https://, or allow it with webhooks.allow.plainHttp";
  return undefined;
}
