import { describe, expect, it } from "vitest";
import {
  inputSource,
  type PauseSource,
  pauseNotification,
  pauseStep,
  resumable,
} from "../../../src/domain/seat-pause.js";

const at = 1_000;
const central = (reason = "restock aisle 4") =>
  ({ type: "pause", kind: "central", by: "wms", reason, at }) as const;
const estop = (active: boolean) =>
  ({ type: "input", device: "di", channel: "estop", active, reason: "Emergency stop", at }) as const;

function run(...inputs: Parameters<typeof pauseStep>[1][]): PauseSource[] {
  return inputs.reduce<PauseSource[]>((s, i) => pauseStep(s, i).sources, []);
}

describe("a seat's pause sources", () => {
  it("central pauses and resumes: one change each, the resume leaves no source", () => {
    const paused = pauseStep([], central());
    expect(paused).toMatchObject({
      changed: true,
      change: { action: "pause", source: "central", by: "wms" },
    });
    expect(paused.sources).toEqual([
      { source: "central", kind: "central", by: "wms", reason: "restock aisle 4", since: at },
    ]);
    const resumed = pauseStep(paused.sources, { type: "resume", kind: "central", by: "wms", at: 2_000 });
    expect(resumed).toMatchObject({
      changed: true,
      sources: [],
      change: { action: "resume", source: "central" },
    });
  });

  it("the same pause again changes nothing; a new reason replaces the old one", () => {
    const s = run(central());
    expect(pauseStep(s, central()).changed).toBe(false);
    const again = pauseStep(s, central("fire drill"));
    expect(again.changed).toBe(true);
    expect(again.sources.map((x) => x.reason)).toEqual(["fire drill"]);
  });

  it("a pause input clears only when the input clears; a manual resume leaves it", () => {
    const s = run(central(), estop(true));
    expect(s.map((x) => x.source)).toEqual(["central", inputSource("di", "estop")]);
    const resumed = pauseStep(s, { type: "resume", kind: "supervisor", by: "sam", at });
    expect(resumed.changed).toBe(true);
    expect(resumed.sources.map((x) => x.source)).toEqual(["input:di/estop"]);
    expect(resumable(resumed.sources)).toBe(false);
    expect(pauseStep(resumed.sources, { type: "resume", kind: "central", by: "wms", at }).changed).toBe(
      false,
    );
    const cleared = pauseStep(resumed.sources, estop(false));
    expect(cleared).toMatchObject({
      changed: true,
      sources: [],
      change: { action: "resume", source: "input:di/estop" },
    });
  });

  it("an input's level repeated changes nothing; a clear input that holds nothing changes nothing", () => {
    expect(pauseStep([], estop(false)).changed).toBe(false);
    const held = run(estop(true));
    expect(pauseStep(held, estop(true)).changed).toBe(false);
  });

  it("a resume by central also clears a supervisor's pause: both are people deciding", () => {
    const s = run({ type: "pause", kind: "supervisor", by: "sam", reason: "training", at }, central());
    expect(s).toHaveLength(2);
    expect(pauseStep(s, { type: "resume", kind: "central", by: "wms", at }).sources).toEqual([]);
  });

  it("the notification is seat_paused while a source remains, seat_resumed when none does, with every source", () => {
    const paused = pauseStep([], estop(true));
    if (!paused.changed) throw new Error("expected a change");
    expect(pauseNotification("front", paused, "2026-11-28T10:00:00.000Z")).toEqual({
      type: "seat_paused",
      data: {
        seat: "front",
        paused: true,
        change: { action: "pause", source: "input:di/estop", by: "di/estop" },
        sources: [
          {
            source: "input:di/estop",
            by: "di/estop",
            reason: "Emergency stop",
            since: "1970-01-01T00:00:01.000Z",
          },
        ],
        timestamp: "2026-11-28T10:00:00.000Z",
      },
    });
    const cleared = pauseStep(paused.sources, estop(false));
    if (!cleared.changed) throw new Error("expected a change");
    expect(pauseNotification("front", cleared, "t").type).toBe("seat_resumed");
  });
});
