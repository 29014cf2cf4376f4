import { afterEach, describe, expect, it } from "vitest";
import { jsonArrayStream } from "../../../src/http/json-array-stream.js";
import { ANSWER_BYTES_PER_TURN } from "../../../src/http/turn-budget.js";
import { turnCounter } from "../../support/turns.js";

let turns: ReturnType<typeof turnCounter> | undefined;
afterEach(() => turns?.stop());

describe("a JSON array answer sent element by element", () => {
  it("is the whole array, each element made only when asked for, and the elements of all answers together made within ANSWER_BYTES_PER_TURN a turn once their sizes are known", async () => {
    const counter = turnCounter();
    turns = counter;
    const ELEMENT = 100 * 1024;
    const made: Array<{ turn: number; bytes: number; first: boolean }> = [];
    function* elements(answer: number): Generator<Buffer> {
      for (let i = 0; i < 8; i++) {
        const bytes = Buffer.from(JSON.stringify({ answer, i, pad: "x".repeat(ELEMENT - 40) }));
        made.push({ turn: counter.now(), bytes: bytes.length, first: i === 0 });
        yield bytes;
      }
    }
    const read = async (answer: number) => {
      const reader = jsonArrayStream(elements(answer)).getReader();
      const parts: Buffer[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(Buffer.from(value));
      }
      return JSON.parse(Buffer.concat(parts).toString("utf8")) as Array<{ answer: number; i: number }>;
    };
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map(read));
    answers.forEach((a, answer) => {
      expect(a.map((e) => [e.answer, e.i])).toEqual(Array.from({ length: 8 }, (_, i) => [answer, i]));
    });
    const perTurn = new Map<number, number>();
    for (const m of made) perTurn.set(m.turn, (perTurn.get(m.turn) ?? 0) + m.bytes);
    // a first element is taken at a slice's guess before it is made; from then on each guess is the
    // size of the element before it, here exact
    const guessed = new Set(made.filter((m) => m.first).map((m) => m.turn));
    for (const [turn, bytes] of perTurn)
      if (!guessed.has(turn)) expect(bytes).toBeLessThanOrEqual(ANSWER_BYTES_PER_TURN);
    // 4.8 MB of elements at most 256 KiB a turn
    expect(perTurn.size).toBeGreaterThanOrEqual(15);
  });

  it("makes no element after its client went", async () => {
    let made = 0;
    function* elements(): Generator<Buffer> {
      for (;;) {
        made++;
        yield Buffer.from("1");
      }
    }
    const reader = jsonArrayStream(elements()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    const atCancel = made;
    await new Promise((ok) => setTimeout(ok, 20));
    expect(made).toBe(atCancel);
  });
});
