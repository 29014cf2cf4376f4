import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, statusFor } from "../../src/http/errors.js";

describe("README error table", () => {
  it("documents every stable error code with its status", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Errors"), readme.indexOf("## Decisions"));
    const rows = new Map(
      [...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]),
    );
    for (const code of ERROR_CODES) expect([code, rows.get(code)]).toEqual([code, statusFor(code)]);
    expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
  });
});
