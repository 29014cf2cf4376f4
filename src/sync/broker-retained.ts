/**
 * Retained messages held by the embedded broker, bounded, in memory of their own. The broker holds them
 * in the agent's memory, so their number and bytes are capped (docs/limits.md): a retained message on
 * a new topic past `maxMessages`, or one that would take the total past `maxBytes`, is passed on to
 * subscribers but not kept, and an older one it would have replaced is cleared rather than left stale.
 * The agent's own request states are small already (a summary past `mqtt.retainedStateMaxBytes`,
 * retained-messages.ts), so the caps hold against other publishers and against a station with a
 * great many active requests. aedes stores a retained
 * PUBLISH with the payload as the MQTT parser produced it: a slice of the socket's read chunk (up to
 * 64 KB), so each ~1.5 KB `state/<type>/<id>` message kept the whole chunk alive for as long as its
 * topic lives (docs/mqtt.md#retained-state). The soak benchmark (`npm run bench soak`) saw the
 * broker's ArrayBuffers grow by ~12 KB per service request created, never released.
 */
import type { Aedes } from "aedes";

interface RetainedPacket {
  topic: string;
  payload: Buffer | string;
}

export interface RetainedBudget {
  /** Retained topics held at once. */
  maxMessages: number;
  /** Their payloads' bytes together. */
  maxBytes: number;
}

/** The part of aedes' persistence (its `persistence` property, public as an option) that keeps them. */
interface RetainedStore {
  storeRetained(packet: RetainedPacket, ...rest: unknown[]): Promise<void> | undefined;
}

/** `payload` in an ArrayBuffer of its own size: a slice of a larger buffer is copied out. */
export function ownPayload<T extends Buffer | string>(payload: T): T {
  if (typeof payload === "string") return payload;
  if (payload.byteOffset === 0 && payload.buffer.byteLength === payload.byteLength) return payload;
  // allocUnsafeSlow: not from Node's shared 8 KB pool, which a small copy would pin in turn
  const own = Buffer.allocUnsafeSlow(payload.byteLength);
  payload.copy(own);
  return own as T;
}

const byteLength = (payload: Buffer | string) =>
  typeof payload === "string" ? Buffer.byteLength(payload) : payload.byteLength;

/**
 * The retained topics held and their bytes. Pure: the broker asks before it stores a retained
 * message; `kept` false means store nothing, and clear what the topic held (`clear` true).
 */
export function retainedLedger(budget: RetainedBudget) {
  const sizes = new Map<string, number>();
  let bytes = 0;
  return {
    store(topic: string, size: number): { kept: boolean; clear: boolean } {
      const old = sizes.get(topic);
      if (size === 0) {
        if (old !== undefined) bytes -= old;
        sizes.delete(topic);
        return { kept: true, clear: false };
      }
      const count = sizes.size + (old === undefined ? 1 : 0);
      if (count > budget.maxMessages || bytes - (old ?? 0) + size > budget.maxBytes) {
        if (old !== undefined) bytes -= old;
        sizes.delete(topic);
        return { kept: false, clear: old !== undefined };
      }
      bytes += size - (old ?? 0);
      sizes.set(topic, size);
      return { kept: true, clear: false };
    },
    get messages() {
      return sizes.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * Makes `broker` keep a copy of each retained payload instead of the read chunk it came in, within
 * `budget`; `refused` is told of each topic not kept.
 */
export function ownRetainedPayloads(
  broker: Aedes,
  budget: RetainedBudget,
  refused: (topic: string) => void,
): void {
  const store = (broker as unknown as { persistence: RetainedStore }).persistence;
  const storeRetained = store.storeRetained.bind(store);
  const ledger = retainedLedger(budget);
  store.storeRetained = (packet, ...rest) => {
    const verdict = ledger.store(packet.topic, byteLength(packet.payload));
    if (verdict.kept) return storeRetained({ ...packet, payload: ownPayload(packet.payload) }, ...rest);
    refused(packet.topic);
    // an empty payload removes the topic from aedes' store (MQTT 3.1.1 §3.3.1.3)
    return verdict.clear
      ? storeRetained({ ...packet, payload: Buffer.alloc(0) }, ...rest)
      : Promise.resolve();
  };
}
