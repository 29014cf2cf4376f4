import { StationParts } from "../../../examples/central-consumer/src/parts.js";

/**
 * What central makes of one station's `notification` messages, in arrival order, with the reference
 * consumer's code (examples/central-consumer/src/parts.ts): parts put together, every notification
 * once (the first time it is whole), in order. Throws on a part it refuses.
 */
export function reassembled(payloads: Array<string | Buffer>): string[] {
  const parts = new StationParts((_, f) => {
    throw new Error(String(f.error));
  });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of payloads) {
    const envelope = parts.take("dc1/7", typeof p === "string" ? p : p.toString("utf8"));
    if (envelope === undefined) continue;
    const id = (JSON.parse(envelope) as { notification_id: string }).notification_id;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(envelope);
  }
  return out;
}
