/**
 * Where a carrier label may be fetched from (docs/security.md#carrier-label-urls): the URL's scheme, its
 * host against `printing.carrierLabels.allowHosts`, and an address literal against the same address
 * rule as webhook URLs (domain/webhook-address.ts). Pure: the fetch (carrier-label-fetch.ts) asks it
 * for the first URL and again for every redirect; names are judged as they resolve, by the address
 * guard of webhook delivery.
 */
import { type AddressAllowance, isIpAddress, refusedAddress } from "../domain/webhook-address.js";

export interface CarrierUrlRules {
  allowHosts: readonly string[];
  allowHttp: boolean;
  allow: AddressAllowance;
}

/** A host as compared: no brackets, lower case, no final dot. */
export const hostOf = (url: URL): string =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.+$/, "");

/** Whether a host is on the list: `labels.carrier.example` exactly, `*.carrier.example` its subdomains (any depth, not itself). */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  return allowHosts.some((raw) => {
    const pattern = raw
      .replace(/^\[|\]$/g, "")
      .toLowerCase()
      .replace(/\.+$/, "");
    if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return host === pattern;
  });
}

/** Why a carrier label URL may not be fetched, in words, or the URL when it may. */
export function checkCarrierUrl(raw: string, rules: CarrierUrlRules): { url: URL } | { refused: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: "the carrier label URL is not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { refused: `${url.protocol} URLs are not fetched (https:// only)` };
  if (url.protocol === "http:" && !rules.allowHttp)
    return {
      refused: `http:// is not encrypted; use https://, or allow it with printing.carrierLabels.allowHttp`,
    };
  if (url.username || url.password) return { refused: "no user or password in a carrier label URL" };
  const host = hostOf(url);
  if (rules.allowHosts.length === 0)
    return { refused: "no carrier label host is allowed (printing.carrierLabels.allowHosts is empty)" };
  if (!hostAllowed(host, rules.allowHosts))
    return { refused: `${host} is not an allowed carrier label host (printing.carrierLabels.allowHosts)` };
  const named = host === "localhost" || host.endsWith(".localhost");
  const address = named
    ? refusedAddress("127.0.0.1", rules.allow)
    : isIpAddress(host)
      ? refusedAddress(host, rules.allow)
      : undefined;
  return address ? { refused: address } : { url };
}

/** The URL as logged and shown: origin and path, never the query (a carrier may put a token there). */
export const urlForLog = (url: URL): string => `${url.origin}${url.pathname}`;
