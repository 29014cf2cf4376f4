/**
 * The connect-time half of the address rule (docs/webhooks.md#safety): the DNS lookup the HTTP client
 * uses, refusing a name that resolves to the agent's computer, a metadata service or a link-local
 * address the config does not allow (domain/webhook-address.ts). Checked on every new connection, so a
 * name that first resolved to a public address and later to 169.254.169.254 is refused then.
 */
import { type LookupAddress, type LookupAllOptions, lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { networkInterfaces } from "node:os";
import { type AddressAllowance, refusedAddress } from "../domain/webhook-address.js";

/** Raised for a refused address: the attempt fails as `refused`, and is retried like any failure. */
export class AddressRefused extends Error {
  override name = "AddressRefused";
}

/** The addresses of this computer's interfaces: with the agent's own port, a URL that is the agent itself. */
export function ownAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => a !== undefined),
  );
}

/** The resolver behind the guard: the system's, as the HTTP client's own lookup. */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A lookup that refuses forbidden addresses; with `self` (the URL's port is the agent's own HTTP port),
 * also this computer's own addresses, which would post the station's stream into the agent itself.
 * Every address the name resolves to is judged, in whatever spelling the resolver gives it.
 */
export function guardedLookup(
  allow: AddressAllowance,
  self?: ReadonlySet<string>,
  resolve: Resolve = lookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const why = addresses.map((a) => refusedAddress(a.address, allow, self)).find((w) => w !== undefined);
      if (why) return callback(new AddressRefused(`${hostname}: ${why}`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
