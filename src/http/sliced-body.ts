/**
 * A large answer already in memory (the API reference's bundle, 1.7 MB; /openapi.json) sent in slices,
 * one a turn of the event loop: a socket whose kernel buffer takes megabytes at once would otherwise take
 * them in one write, and on loopback the kernel delivers them within that write, holding the station's
 * one thread (docs/limits.md#slow-readers). The slices are views of the same bytes: nothing is copied.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** Bytes written in one turn at most. */
export const SLICE_BYTES = 64 * 1024;

export function slicedBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (at > 0) await nextTurn();
        const end = Math.min(at + SLICE_BYTES, bytes.length);
        controller.enqueue(bytes.subarray(at, end));
        at = end;
        if (at >= bytes.length) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
