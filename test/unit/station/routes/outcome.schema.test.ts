/**
 * The engine's `Outcome` has one definition (src/station/engine.ts); the OpenAPI document describes it
 * with src/station/routes/outcome.schema.ts. A field added, dropped or retyped on one side and not the
 * other fails `tsc` here (the type check), and a field the description drops fails the parse below.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { Outcome } from "../../../../src/station/engine.js";
import { outcomeSchema } from "../../../../src/station/routes/outcome.schema.js";

describe("the engine's outcome as the OpenAPI document describes it", () => {
  it("is the engine's type, field for field (checked by tsc)", () => {
    expectTypeOf<z.output<typeof outcomeSchema>>().toEqualTypeOf<Outcome>();
  });

  it("keeps every field of a full outcome", () => {
    const full: Required<Outcome> = {
      seat: "front",
      result: "done",
      as: "exception",
      did: "pick_exception",
      code: "ITEM_MISSING",
      reason: "no_work",
      message: "nothing to do",
      step: "pick_confirm",
      calls: ["pickException"],
      params: { bin: "1" },
    };
    expect(outcomeSchema.parse(full)).toEqual(full);
  });
});
