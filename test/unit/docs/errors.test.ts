import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, statusFor } from "../../../src/http/errors.js";

describe("docs/errors.md: the error table", () => {
  it("documents every stable error code with its status", () => {
    const section = readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");
    const rows = new Map(
      [...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]),
    );
    for (const code of ERROR_CODES) expect([code, rows.get(code)]).toEqual([code, statusFor(code)]);
    expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
  });
});
