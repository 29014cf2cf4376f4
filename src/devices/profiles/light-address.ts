/**
 * Light addresses: how a put-to-light profile numbers its modules (`ptl.addressing`) and the one parser
 * of an address written in that scheme. The station file's checks make every bin's light address
 * canonical with it, and the controllers' adapters read the same addresses back into numbers with it,
 * so a light the station file accepts is exactly a light the adapter can drive.
 */
import { z } from "zod";

export const addressingSchema = z.strictObject({
  scheme: z.enum(["node", "shelf+compartment", "unit-id"]),
  min: z.int().min(0),
  max: z.int().min(0),
  broadcast: z.union([z.int(), z.string(), z.null()]).optional(),
});

export type Addressing = z.infer<typeof addressingSchema>;

/** A light address read: its canonical text and its numbers (node or unit id; shelf and compartment). */
export interface LightAddress {
  canonical: string;
  numbers: readonly [number, ...number[]];
}

/**
 * Reads `text` as an address of the scheme, or says why it is not one. Node and unit ids are numbers
 * ("005" = "5") within the profile's range; SorTexx addresses are shelf (3 digits) + compartment (3
 * digits), "000" being broadcast [SRC 33], which no single light may use (docs/hardware.md#sortexx-ascii).
 */
export function parseLightAddress(addressing: Addressing, text: string): LightAddress | { error: string } {
  const { scheme, min, max } = addressing;
  if (scheme === "shelf+compartment") {
    if (!/^\d{6}$/.test(text)) return { error: "expected 6 digits: shelf (3) and compartment (3)" };
    if (text.startsWith("000") || text.endsWith("000"))
      return { error: "000 is the broadcast address [SRC 33]" };
    return { canonical: text, numbers: [Number(text.slice(0, 3)), Number(text.slice(3, 6))] };
  }
  if (!/^\d{1,3}$/.test(text)) return { error: `expected a ${scheme === "node" ? "tag" : "unit"} number` };
  const n = Number(text);
  if (n < min || n > max) return { error: `must be ${min}..${max}` };
  return { canonical: String(n), numbers: [n] };
}

/** For adapters, whose commands carry addresses the station file already checked: a bad one is a bug. */
export function readLightAddress(addressing: Addressing, text: string): LightAddress {
  const a = parseLightAddress(addressing, text);
  if ("error" in a) throw new RangeError(`light address ${JSON.stringify(text)}: ${a.error}`);
  return a;
}
