import { afterEach, describe, expect, it } from "vitest";
import { SLICE_BYTES, slicedBody } from "../../../src/http/sliced-body.js";
import { ANSWER_BYTES_PER_TURN } from "../../../src/http/turn-budget.js";
import { turnCounter } from "../../support/turns.js";

let turns: ReturnType<typeof turnCounter> | undefined;
afterEach(() => turns?.stop());

describe("a large answer in slices", () => {
  it("gives back the same bytes in slices of at most SLICE_BYTES; the slices of all answers together stay within ANSWER_BYTES_PER_TURN a turn", async () => {
    const counter = turnCounter();
    turns = counter;
    const sent: Array<{ answer: number; length: number; turn: number }> = [];
    const read = async (answer: number, bytes: Uint8Array) => {
      const reader = slicedBody(bytes).getReader();
      const got: Buffer[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        sent.push({ answer, length: value.length, turn: counter.now() });
        got.push(Buffer.from(value));
      }
      return Buffer.concat(got);
    };
    // six at once: one slice each a turn would be 384 KiB
    const answers = [0, 1, 2, 3, 4, 5].map((a) =>
      Uint8Array.from({ length: 10 * SLICE_BYTES + 123 * (a + 1) }, (_, i) => (i + a) % 251),
    );
    const got = await Promise.all(answers.map((bytes, a) => read(a, bytes)));
    got.forEach((g, a) => {
      expect(g.equals(Buffer.from(answers[a] as Uint8Array))).toBe(true);
    });
    expect(Math.max(...sent.map((s) => s.length))).toBe(SLICE_BYTES);
    const perTurn = new Map<number, number>();
    for (const s of sent) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + s.length);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(ANSWER_BYTES_PER_TURN);
    // the answers share the turns: the last one began before the first was done
    const firstOfLast = sent.findIndex((s) => s.answer === 5);
    const lastOfFirst = sent.findLastIndex((s) => s.answer === 0);
    expect(firstOfLast).toBeLessThan(lastOfFirst);
  });
});
