/**
 * A JSON array answer whose elements are already JSON bytes (a search_v2 answer: db/item-answer.ts),
 * sent element by element: the array is never joined into one string or buffer, and the next element
 * is asked for only when the client has taken the one before it (the stream's pull follows the
 * socket's drain), so an answer holds one element at a time (docs/limits.md#slow-readers).
 */
import { answerParts } from "./turn-budget.js";

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");
/** What the first element is taken to weigh before it is made: a slice of a large answer (sliced-body.ts). */
const FIRST_GUESS_BYTES = 64 * 1024;

export function jsonArrayStream(elements: Iterable<Buffer>): ReadableStream<Uint8Array> {
  const next = elements[Symbol.iterator]();
  let first = true;
  let cancelled = false;
  // an element's size is known once it is made: the one before it is the guess, a slice's for the first
  let guess = FIRST_GUESS_BYTES;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(OPEN);
      },
      async pull(controller) {
        // each element is made and handed over in the turns large answers' parts go in
        const wait = answerParts.take(guess);
        if (wait) await wait;
        if (cancelled) return;
        const step = next.next();
        if (step.done) {
          controller.enqueue(CLOSE);
          controller.close();
          return;
        }
        answerParts.charge(step.value.length - guess);
        guess = step.value.length;
        if (!first) controller.enqueue(COMMA);
        first = false;
        controller.enqueue(step.value);
      },
      cancel() {
        cancelled = true;
        next.return?.();
      },
    },
    // one element waits at most: the next is assembled when the client has taken this one
    { highWaterMark: 1 },
  );
}
