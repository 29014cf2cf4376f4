import { expect } from "vitest";
import type { Json } from "../../support/station.js";

export { CATALOG, SEARCH } from "./endpoints.js";

export const pdea = (
  field_name: string,
  field_data_type = "string",
  locale = "en",
  display_name = "Name",
) => ({
  field_name,
  field_data_type,
  display_data: [{ locale, display_name }],
});

export const catalogBody = (clientCatalogId: string, over: Json = {}): Json => ({
  clientCatalogId,
  exhaustive_pdea_list: [pdea("product_sku")],
  ...over,
});

/** A refusal as docs/errors.md describes it: the status, the stable code and the field at fault. */
export async function refused(
  res: Response | Promise<Response>,
  status: number,
  code: string,
  path: string,
): Promise<Json> {
  const r = await res;
  const body = (await r.json()) as Json;
  const paths = (body.errors as Array<{ path: string }>).map((e) => e.path);
  expect([r.status, body.code, paths]).toEqual([status, code, expect.arrayContaining([path])]);
  return body;
}

/** The same refusal in an MQTT answer (`{transaction, status: "error", error}`). */
export function refusedOverMqtt(answer: string, status: number, code: string, path: string): void {
  const a = JSON.parse(answer) as Json;
  const paths = (a.error?.errors as Array<{ path: string }> | undefined)?.map((e) => e.path);
  expect([a.status, a.error?.status, a.error?.code, paths]).toEqual([
    "error",
    status,
    code,
    expect.arrayContaining([path]),
  ]);
}
