import { itemBody } from "../../support/fixtures.js";
import { CORE, ITEM, pickBody, pickLine, SR } from "../../support/station.js";

/** The spec's path groups ("General rules" → Path groups), by what they are used for. */
export const PREFIX = {
  token: "/api-gateway/auth-service/platform-auth",
  masterdata: "/api-gateway/mdm-service/wms-masterdata",
  requests: "/api-gateway/sr-service/platform-srms",
  integration: "/api-gateway/integration-service/wms-integration/core/api",
  report: "/api-gateway/platform-dashboard/report",
} as const;

export const CATALOG = `${PREFIX.masterdata}/catalog`;
export const SEARCH = `${ITEM}/search_v2`;
export const AUDIT = `${CORE}/audit`;
export const GENERATE = `${PREFIX.report}/generate-inventory-report`;

export interface SpecEndpoint {
  /** The spec's name for the row, used in test names. */
  name: string;
  method: string;
  path: string;
  /** A body the endpoint takes (JSON), so that only the header under test is wrong. */
  body?: unknown;
}

export const CATALOG_BODY = {
  clientCatalogId: "cat-general",
  exhaustive_pdea_list: [
    {
      field_name: "product_sku",
      field_data_type: "string",
      display_data: [{ locale: "en", display_name: "SKU" }],
    },
  ],
};

export const AUDIT_BODY = {
  action: "create",
  audit_param_name: "cycle count",
  audit_param_type: "location",
  audit_param_value: { locations_list: ["MSU-1"] },
  kq: true,
};

/**
 * Every endpoint row of the spec ("Endpoints") but the token endpoint, each with a well-formed call.
 * `ids` names what exists at the station: an order, a put and an audit, so that a refusal is never
 * the 404 of an unknown id.
 */
export function specEndpoints(ids: { order: string; put: string; audit: string }): SpecEndpoint[] {
  return [
    { name: "List catalogs", method: "GET", path: CATALOG },
    { name: "Create or update catalog", method: "POST", path: CATALOG, body: CATALOG_BODY },
    { name: "Create or update item", method: "POST", path: ITEM, body: itemBody("GENERAL-1") },
    {
      name: "Search items",
      method: "POST",
      path: SEARCH,
      body: { filter_params: [{ key: "product_sku", operator: "=", value: "GENERAL-1" }] },
    },
    { name: "Create audit", method: "POST", path: AUDIT, body: AUDIT_BODY },
    { name: "Delete audit", method: "DELETE", path: `${AUDIT}/delete/${ids.audit}` },
    {
      name: "Create (service request)",
      method: "POST",
      path: SR,
      body: pickBody("GENERAL-ORDER", [pickLine("GENERAL-ORDER-1", "SHIRT", 1)]),
    },
    {
      name: "Cancel pick",
      method: "POST",
      path: `${SR}/cancel`,
      body: { externalServiceRequestId: ids.order, type: "PICK" },
    },
    {
      name: "Modify pick",
      method: "POST",
      path: `${SR}/modify`,
      body: { externalServiceRequestId: ids.order, type: "PICK", attributes: { simple_priority: "high" } },
    },
    {
      name: "Stage put",
      method: "POST",
      path: `${CORE}/stage_put_expectation`,
      body: { serviceRequestId: ids.put, ppsId: "7", ppsBinId: "1" },
    },
    { name: "Reports", method: "POST", path: GENERATE },
    { name: "Process flow trigger", method: "POST", path: `${CORE}/orders/print_ready/${ids.order}` },
  ];
}
