/**
 * zod → OpenAPI 3.0 Schema Objects (src/http/openapi.schemas.ts): the 3.0 forms of what JSON Schema
 * 2020-12 says differently, and definitions moved to components.schemas with their `$ref`s.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SchemaComponents } from "../../../src/http/openapi.schemas.js";

describe("SchemaComponents", () => {
  it("writes 3.0 forms: nullable, enum for a literal, boolean exclusiveMinimum, no safe-integer bounds", () => {
    const s = new SchemaComponents();
    const json = s.convert(
      z.object({
        kind: z.literal("PICK"),
        note: z.string().nullable(),
        qty: z.number().int().positive(),
        n: z.number().int(),
      }),
      "input",
      "x",
    );
    expect(json.properties).toEqual({
      kind: { type: "string", enum: ["PICK"] },
      note: { type: "string", nullable: true },
      qty: { type: "integer", minimum: 0, exclusiveMinimum: true },
      n: { type: "integer" },
    });
    expect(JSON.stringify(json)).not.toMatch(/"const"|"\$schema"|"type":\[/);
  });

  it("moves a recursive schema to components.schemas under its id, once, and points every $ref there", () => {
    interface Node {
      name: string;
      children?: Node[] | undefined;
    }
    const node: z.ZodType<Node> = z
      .object({
        name: z.string(),
        get children() {
          return z.array(node).optional();
        },
      })
      .meta({ id: "TreeNode" });
    const s = new SchemaComponents();
    const a = s.convert(z.object({ root: node }), "input", "a");
    const b = s.convert(z.object({ top: node }), "input", "b");
    expect(a).toEqual({
      type: "object",
      properties: { root: { $ref: "#/components/schemas/TreeNode" } },
      required: ["root"],
    });
    expect(b.properties).toEqual({ top: { $ref: "#/components/schemas/TreeNode" } });
    expect(Object.keys(s.schemas)).toEqual(["TreeNode"]);
    expect(s.schemas.TreeNode?.properties).toMatchObject({
      children: { type: "array", items: { $ref: "#/components/schemas/TreeNode" } },
    });
  });

  it("names an unnamed recursive root after the operation, and keeps two different schemas of one name apart", () => {
    interface Cell {
      next?: Cell | undefined;
    }
    const cell: z.ZodType<Cell> = z.object({
      get next() {
        return cell.optional();
      },
    });
    const s = new SchemaComponents();
    expect(s.convert(cell, "input", "postList_body")).toEqual({ $ref: "#/components/schemas/postList_body" });
    expect(s.schemas.postList_body?.properties).toEqual({
      next: { allOf: [{ $ref: "#/components/schemas/postList_body" }] },
    });
    const other = z.object({ v: z.string() }).meta({ id: "Shape" });
    const again = z.object({ w: z.number() }).meta({ id: "Shape" });
    s.convert(z.object({ a: other }), "input", "a");
    expect(s.convert(z.object({ b: again }), "input", "b").properties).toEqual({
      b: { $ref: "#/components/schemas/Shape_2" },
    });
    expect(s.schemas.Shape_2?.properties).toEqual({ w: { type: "number" } });
  });

  it("answers promise no closed objects: additionalProperties false is left out of output schemas", () => {
    const s = new SchemaComponents();
    expect(s.convert(z.object({ a: z.string() }), "output", "x")).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
    });
  });
});
