import { z } from "zod";
import { identifier } from "./identifier.js";
import { SIMPLE_PRIORITIES } from "./work-order.js";

/**
 * Request bodies of the service-request endpoints (docs/interface.md: "Service Request object", "Pick request",
 * "Put request", Endpoints → Service requests). Response-only members (id, status, state, timestamps,
 * actuals) are accepted and ignored, so a client may post back what it read.
 */
const id255 = identifier(255);
const responseOnly = {
  id: z.unknown().optional(),
  status: z.unknown().optional(),
  state: z.unknown().optional(),
  actuals: z.unknown().optional(),
  receivedOn: z.unknown().optional(),
  createdOn: z.unknown().optional(),
  updatedOn: z.unknown().optional(),
};

/**
 * A child list of a request that has no children, a put's or a pick line's `serviceRequests` ("list of
 * service requests, or null"): absent, `null` and `[]` all say "none"
 * (docs/decisions.md#service-requests-pick-pickpack-put); a list naming a child is a 400.
 */
const noChildren = (whose: string) =>
  z
    .array(z.unknown())
    .max(0, `${whose} has no child requests: leave serviceRequests out, null or empty`)
    .nullable()
    .optional();

/**
 * A pick's root `expectations` ("object or null"): what is asked for is in its lines, so the root may
 * only say nothing, as `null`, `{}`, `{containers: null}` or `{containers: []}`. A container named there
 * is a 400 on create and modify alike: a modify carrying only that would otherwise answer `success` for
 * a change it did not make.
 */
const pickRootExpectations = z
  .looseObject({ containers: z.array(z.unknown()).nullable().optional() })
  .nullable()
  .optional()
  .refine((e) => !e?.containers?.length, {
    message: "a pick's expectations are its lines': change them in serviceRequests",
  });

/**
 * Root `order_options` (spec "Pick request"): members depend on the downstream engine and are kept as
 * sent, except `bintags`, which the spec's pick+pack names as a list of strings.
 */
const orderOptions = z
  .record(z.string().max(255), z.unknown())
  .and(z.looseObject({ bintags: z.array(z.string().max(255)).max(100).optional() }));

export const pickAttributesSchema = z
  .looseObject({
    pick_before_time: z.string().max(64).optional(),
    pick_after_time: z.string().max(64).optional(),
    simple_priority: z.enum(SIMPLE_PRIORITIES).optional(),
    order_options: orderOptions.optional(),
  })
  .nullable()
  .optional();

/** Pick+pack line attributes (docs/interface.md: "Pick+pack"); any of them makes the request a pick+pack. */
export const PACK_ATTRIBUTES = [
  "shipping_address",
  "carrier_label_url",
  "packing_box_id",
  "packing_box_type",
  "order_number",
] as const;

export const pickLineAttributesSchema = z
  .looseObject({
    shipping_address: z.string().max(1024).optional(),
    carrier_label_url: z.string().max(1024).optional(),
    packing_box_id: z.string().max(255).optional(),
    packing_box_type: z.string().max(255).optional(),
    order_number: z.string().max(255).optional(),
  })
  .nullable()
  .optional();

const pickProductSchema = z.looseObject({
  productQuantity: z.number().int().min(1).max(1_000_000),
  productAttributes: z.looseObject({
    filter_parameters: z.array(z.string().min(1).max(1024)).min(1).max(20),
  }),
});

export const pickLineSchema = z.object({
  ...responseOnly,
  externalServiceRequestId: id255,
  type: z.literal("PICK_LINE"),
  serviceRequests: noChildren("a pick line"),
  expectations: z.looseObject({
    containers: z.array(z.looseObject({ products: z.array(pickProductSchema).length(1) })).length(1),
  }),
  attributes: pickLineAttributesSchema,
});
export type PickLineInput = z.output<typeof pickLineSchema>;

const uniqueLineIds = (lines: Array<{ externalServiceRequestId: string }>, ctx: z.RefinementCtx) => {
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    const prev = seen.get(l.externalServiceRequestId);
    if (prev !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [i, "externalServiceRequestId"],
        message: `repeats line ${prev}'s id; line ids are unique within a request`,
      });
    } else seen.set(l.externalServiceRequestId, i);
  });
};

export const pickCreateSchema = z.object({
  ...responseOnly,
  externalServiceRequestId: id255,
  type: z.literal("PICK"),
  serviceRequests: z
    .array(pickLineSchema)
    .min(1, "a pick request needs at least one pick line")
    .max(1000)
    .superRefine(uniqueLineIds),
  expectations: pickRootExpectations,
  attributes: pickAttributesSchema,
});
export type PickCreateInput = z.output<typeof pickCreateSchema>;

const putProductSchema = z.looseObject({
  productQuantity: z.number().int().min(1).max(1_000_000),
  productAttributes: z.looseObject({
    pdfa_values: z.looseObject({ product_sku: identifier(255) }),
  }),
});

export const putExpectationsSchema = z.looseObject({
  containers: z
    .array(z.looseObject({ products: z.array(putProductSchema).min(1).max(1000) }))
    .min(1)
    .max(100),
});

export const putAttributesSchema = z
  .looseObject({ tote_id: identifier(255).optional() })
  .nullable()
  .optional();

export const putCreateSchema = z.object({
  ...responseOnly,
  externalServiceRequestId: id255,
  type: z.literal("PUT"),
  serviceRequests: noChildren("a put"),
  expectations: putExpectationsSchema,
  attributes: putAttributesSchema,
});
export type PutCreateInput = z.output<typeof putCreateSchema>;

/** The create body is told apart by `type` before its own schema runs (400 naming `type`). */
export const createTypeSchema = z.looseObject({ type: z.enum(["PICK", "PUT"]) });

/**
 * Spec "Cancel pick" / "Cancel put": `externalServiceRequestId` and `type`, nothing else. A cancel is of
 * the whole request ("Full versus partial cancellation of a pick request: not shown"), so a member it
 * does not read, `serviceRequests` naming lines above all, is a 400 naming it, never dropped unread
 * (docs/decisions.md "Cancel and modify (pick)").
 */
export const cancelSchema = z
  .object({
    externalServiceRequestId: id255,
    type: z.enum(["PICK", "PUT"]),
  })
  .strict();

/**
 * Modify is a partial update (docs/decisions.md#service-requests-pick-pickpack-put, modify): an attribute member given replaces that member
 * and `null` removes it; a line is named by its externalServiceRequestId and changed (the members it
 * gives) or added; `productQuantity: 0` removes it. The root `expectations` (spec: "optional
 * `expectations`") may only say nothing, as on create. A member the interface types "or null" that the
 * request cannot be without (a pick's lines, a line's or a put's expectations) is unchanged when `null`,
 * as when absent, so a client that writes unset members as null can change the attributes alone.
 */
const nullable = <S extends z.ZodType>(schema: S) => schema.nullable().optional();

export const pickModifyAttributesSchema = z
  .looseObject({
    pick_before_time: nullable(z.string().max(64)),
    pick_after_time: nullable(z.string().max(64)),
    simple_priority: nullable(z.enum(SIMPLE_PRIORITIES)),
    order_options: nullable(orderOptions),
  })
  .nullable()
  .optional();

export const pickModifyLineSchema = z.object({
  ...responseOnly,
  externalServiceRequestId: id255,
  type: z.literal("PICK_LINE").optional(),
  serviceRequests: noChildren("a pick line"),
  expectations: z
    .looseObject({
      containers: z
        .array(
          z.looseObject({
            products: z
              .array(
                z.looseObject({
                  productQuantity: z.number().int().min(0).max(1_000_000).optional(),
                  productAttributes: z
                    .looseObject({
                      filter_parameters: z.array(z.string().min(1).max(1024)).min(1).max(20).optional(),
                    })
                    .optional(),
                }),
              )
              .length(1),
          }),
        )
        .length(1),
    })
    .nullable()
    .optional(),
  attributes: z
    .looseObject({
      shipping_address: nullable(z.string().max(1024)),
      carrier_label_url: nullable(z.string().max(1024)),
      packing_box_id: nullable(z.string().max(255)),
      packing_box_type: nullable(z.string().max(255)),
      order_number: nullable(z.string().max(255)),
    })
    .nullable()
    .optional(),
});
export type PickModifyLineInput = z.output<typeof pickModifyLineSchema>;

export const pickModifySchema = z.object({
  externalServiceRequestId: id255,
  type: z.literal("PICK"),
  expectations: pickRootExpectations,
  // `[]` changes no line, as null does
  serviceRequests: z.array(pickModifyLineSchema).max(1000).superRefine(uniqueLineIds).nullable().optional(),
  attributes: pickModifyAttributesSchema,
});
export type PickModifyInput = z.output<typeof pickModifySchema>;

export const putModifySchema = z.object({
  externalServiceRequestId: id255,
  type: z.literal("PUT"),
  expectations: putExpectationsSchema.nullable().optional(),
  attributes: putAttributesSchema,
});
export type PutModifyInput = z.output<typeof putModifySchema>;

/** Spec "Stage put": the body of stage_put_expectation, and of the MQTT request `stage_put`. */
export const stagePutSchema = z.object({
  serviceRequestId: id255,
  ppsId: z.union([identifier(64), z.number().int()]).transform(String),
  ppsBinId: z.union([identifier(64), z.number().int()]).transform(String),
});
export type StagePutInput = z.output<typeof stagePutSchema>;

/**
 * A request named by its id: the path parameter of print_ready over HTTP, the payload of the MQTT
 * request `print_ready` (path parameters travel in the payload under the same name).
 */
export const requestIdSchema = z.object({ externalServiceRequestId: id255 });
