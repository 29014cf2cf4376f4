/**
 * The connect-time half of the address rule (docs/webhooks.md#safety): the DNS lookup the HTTP client
 * uses, refusing a name that resolves to the agent's computer, a metadata service or a link-local
 * address the config does not allow (domain/webhook-address.ts). Checked on every new connection, so a
 * name that first resolved to a public address and later to 169.254.169.254 is refused then.
 */
import { type LookupAddress, lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { type AddressAllowance, refusedAddress } from "../domain/webhook-address.js";

/** Raised for a refused address: the attempt fails as `refused`, and is retried like any failure. */
export class AddressRefused extends Error {
  override name = "AddressRefused";
}

export function guardedLookup(allow: AddressAllowance): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const why = addresses.map((a) => refusedAddress(a.address, allow)).find((w) => w !== undefined);
      if (why) return callback(new AddressRefused(`${hostname}: ${why}`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
