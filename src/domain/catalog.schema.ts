import { z } from "zod";
import { identifier } from "./identifier.js";

/** Spec "PDEA object": the sample also uses `float`, so it is accepted beside `double`. */
export const PDEA_DATA_TYPES = ["string", "list", "double", "float", "integer", "boolean", "dict"] as const;
export type PdeaDataType = (typeof PDEA_DATA_TYPES)[number];

/**
 * Spec display_data[].locale: "language code (for example two letters) or language plus country". A
 * well-formed BCP 47 tag as `Intl.getCanonicalLocales` reads it (so `fil`, `en-US`, `zh-Hant-TW`), whose
 * language is an ISO 639 code of two or three letters: the five-to-eight-letter language subtags BCP 47
 * keeps for registration have none registered, and a word such as `english` is a mistake, not a code.
 * Kept as sent (docs/decisions.md).
 */
export function isLocale(tag: string): boolean {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical !== undefined && /^[a-z]{2,3}$/.test(new Intl.Locale(canonical).language);
  } catch {
    return false;
  }
}

export const displayDataSchema = z
  .object({
    locale: z
      .string()
      .max(64)
      .refine(isLocale, "a language code (en, fil) or language-COUNTRY (en-US), as BCP 47"),
    display_name: z.string().min(1).max(255),
  })
  .strict();

export const pdeaSchema = z
  .object({
    /** Returned on retrieval; ignored on input (ids are assigned by the agent). */
    id: z.number().int().optional(),
    field_name: z.string().min(1).max(255),
    field_data_type: z.enum(PDEA_DATA_TYPES),
    display_data: z.array(displayDataSchema).min(1, "at least one entry is required").max(100),
  })
  .strict();

export const catalogInputSchema = z
  .object({
    id: z.number().int().optional(),
    clientCatalogId: identifier(255),
    description: z.string().max(255).nullable().optional(),
    exhaustive_pdea_list: z
      .array(pdeaSchema)
      .max(1000)
      .superRefine((list, ctx) => {
        const seen = new Map<string, number>();
        list.forEach((p, i) => {
          const prev = seen.get(p.field_name);
          if (prev !== undefined) {
            ctx.addIssue({
              code: "custom",
              path: [i, "field_name"],
              message: `duplicate field_name '${p.field_name}' (also at index ${prev})`,
            });
          } else seen.set(p.field_name, i);
        });
      }),
  })
  .strict();

export type CatalogInput = z.output<typeof catalogInputSchema>;
export type PdeaInput = z.output<typeof pdeaSchema>;

export const pdeaOutputSchema = pdeaSchema.extend({ id: z.number().int() });
export const catalogOutputSchema = z.object({
  id: z.number().int(),
  clientCatalogId: z.string(),
  description: z.string().nullable(),
  exhaustive_pdea_list: z.array(pdeaOutputSchema),
});
export type CatalogOutput = z.output<typeof catalogOutputSchema>;

/** Does a product attribute value fit the PDEA's declared type? */
export function valueFitsType(value: unknown, type: PdeaDataType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "double":
    case "float":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value);
    case "dict":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}
