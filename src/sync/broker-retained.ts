/**
 * Retained messages held by the embedded broker in memory of their own. aedes stores a retained
 * PUBLISH with the payload as the MQTT parser produced it: a slice of the socket's read chunk (up to
 * 64 KB), so each ~1.5 KB `state/<type>/<id>` message kept the whole chunk alive for as long as its
 * topic lives (docs/mqtt.md#retained-state). The soak benchmark (`npm run bench soak`) saw the
 * broker's ArrayBuffers grow by ~12 KB per service request created, never released.
 */
import type { Aedes } from "aedes";

interface RetainedPacket {
  payload: Buffer | string;
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

/** Makes `broker` keep a copy of each retained payload instead of the read chunk it came in. */
export function ownRetainedPayloads(broker: Aedes): void {
  const store = (broker as unknown as { persistence: RetainedStore }).persistence;
  const storeRetained = store.storeRetained.bind(store);
  store.storeRetained = (packet, ...rest) =>
    storeRetained({ ...packet, payload: ownPayload(packet.payload) }, ...rest);
}
