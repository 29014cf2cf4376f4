/**
 * A large answer already in memory (the API reference's bundle, 1.7 MB; /openapi.json) sent in slices,
 * in the turns large answers' parts go in (turn-budget.ts#answerParts): a socket whose kernel buffer
 * takes megabytes at once would otherwise take them in one write, and on loopback the kernel delivers
 * them within that write, holding the station's one thread (docs/limits.md#slow-readers). The slices
 * are views of the same bytes: nothing is copied.
 */
import { answerParts } from "./turn-budget.js";

/** Bytes written in one slice at most. */
export const SLICE_BYTES = 64 * 1024;

export function slicedBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const end = Math.min(at + SLICE_BYTES, bytes.length);
        const wait = answerParts.take(end - at);
        if (wait) await wait;
        // the client went while this slice waited for its turn
        if (cancelled) return;
        controller.enqueue(bytes.subarray(at, end));
        at = end;
        if (at >= bytes.length) controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}
