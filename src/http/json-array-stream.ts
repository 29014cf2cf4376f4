/**
 * A JSON array answer whose elements are already JSON bytes (a search_v2 answer: db/item-answer.ts),
 * sent element by element: the array is never joined into one string or buffer, and each element is
 * let go once it has been handed on (docs/limits.md#item-documents).
 */
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

export function jsonArrayStream(elements: Array<Buffer | undefined>): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(OPEN);
    },
    pull(controller) {
      if (next >= elements.length) {
        controller.enqueue(CLOSE);
        controller.close();
        return;
      }
      const element = elements[next] as Buffer;
      elements[next] = undefined;
      if (next > 0) controller.enqueue(COMMA);
      controller.enqueue(element);
      next++;
    },
  });
}
