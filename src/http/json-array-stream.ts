/**
 * A JSON array answer whose elements are already JSON bytes (a search_v2 answer: db/item-answer.ts),
 * sent element by element: the array is never joined into one string or buffer, and the next element
 * is asked for only when the client has taken the one before it (the stream's pull follows the
 * socket's drain), so an answer holds one element at a time (docs/limits.md#slow-readers).
 */
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

export function jsonArrayStream(elements: Iterable<Buffer>): ReadableStream<Uint8Array> {
  const next = elements[Symbol.iterator]();
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(OPEN);
      },
      pull(controller) {
        const step = next.next();
        if (step.done) {
          controller.enqueue(CLOSE);
          controller.close();
          return;
        }
        if (!first) controller.enqueue(COMMA);
        first = false;
        controller.enqueue(step.value);
      },
      cancel() {
        next.return?.();
      },
    },
    // one element waits at most: the next is assembled when the client has taken this one
    { highWaterMark: 1 },
  );
}
