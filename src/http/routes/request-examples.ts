/**
 * Example request bodies shown in the API reference (/docs), one set per route. Each is a body the
 * route accepts: a test parses every example with the route's own schema, so they cannot drift.
 * Values follow the interface's samples (docs/interface.md).
 */

export const TOKEN_EXAMPLES = {
  password: { grant_type: "password", username: "admin", password: "the-admin-password" },
  refresh_token: { grant_type: "refresh_token", refresh_token: "the-refresh-token-of-the-last-grant" },
};

export const CATALOG_EXAMPLE = {
  clientCatalogId: "apparel",
  description: "Clothing",
  exhaustive_pdea_list: [
    {
      field_name: "product_sku",
      field_data_type: "string",
      display_data: [{ locale: "en-US", display_name: "SKU" }],
    },
    {
      field_name: "size",
      field_data_type: "string",
      display_data: [
        { locale: "en-US", display_name: "Size" },
        { locale: "de", display_name: "Größe" },
      ],
    },
  ],
};

export const ITEM_EXAMPLE = {
  schema: { unique: [["product_sku"]], type: "object" },
  clientCategoryId: "shirts",
  attributes: {
    weight: { value: 250, uom: { unit: "G" } },
    dimension: { length: 30, width: 20, height: 2, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: "TSHIRT-BLUE-M", size: "M" },
  barcodeList: [{ barcode: "4006381333931" }],
  description: "T-shirt, blue, M",
  imageUrl: "https://images.example.com/tshirt-blue-m.png",
};

export const SEARCH_EXAMPLE = {
  filter_params: [{ key: "product_sku", operator: "=", value: "TSHIRT-BLUE-M" }],
};

const pickLine = (id: string, sku: string, qty: number) => ({
  externalServiceRequestId: id,
  type: "PICK_LINE",
  expectations: {
    containers: [
      {
        products: [
          { productQuantity: qty, productAttributes: { filter_parameters: [`product_sku = '${sku}'`] } },
        ],
      },
    ],
  },
});

const PUT = {
  externalServiceRequestId: "PUT-2001",
  type: "PUT",
  attributes: { tote_id: "TOTE-17" },
  expectations: {
    containers: [
      {
        products: [
          { productQuantity: 6, productAttributes: { pdfa_values: { product_sku: "TSHIRT-BLUE-M" } } },
        ],
      },
    ],
  },
};

export const SERVICE_REQUEST_EXAMPLES = {
  pick: {
    externalServiceRequestId: "ORDER-1001",
    type: "PICK",
    attributes: { simple_priority: "high" },
    serviceRequests: [pickLine("ORDER-1001-1", "TSHIRT-BLUE-M", 2), pickLine("ORDER-1001-2", "CAP-RED", 1)],
  },
  put: PUT,
};

export const CANCEL_EXAMPLE = { externalServiceRequestId: "ORDER-1001", type: "PICK" };

export const MODIFY_EXAMPLES = {
  pick: {
    externalServiceRequestId: "ORDER-1001",
    type: "PICK",
    serviceRequests: [pickLine("ORDER-1001-1", "TSHIRT-BLUE-M", 3)],
  },
  /** A partial update: one attribute changed, one removed, one line's quantity changed, one removed. */
  pickPartial: {
    externalServiceRequestId: "ORDER-1001",
    type: "PICK",
    attributes: { pick_before_time: "2026-11-21T18:00:00+01:00", simple_priority: null },
    serviceRequests: [
      {
        externalServiceRequestId: "ORDER-1001-1",
        expectations: { containers: [{ products: [{ productQuantity: 2 }] }] },
      },
      {
        externalServiceRequestId: "ORDER-1001-2",
        expectations: { containers: [{ products: [{ productQuantity: 0 }] }] },
      },
    ],
  },
  put: { externalServiceRequestId: "PUT-2001", type: "PUT", expectations: PUT.expectations },
};

export const STAGE_PUT_EXAMPLE = { serviceRequestId: "PUT-2001", ppsId: "1", ppsBinId: "B1" };

export const AUDIT_EXAMPLES = {
  location: {
    action: "create",
    audit_param_name: "cycle count, aisle 3",
    audit_param_type: "location",
    audit_param_value: { locations_list: ["S1", "S2"] },
    kq: true,
    audit_creator_name: "inventory team",
  },
  sku: {
    action: "create",
    audit_param_name: "blue shirts",
    audit_param_type: "sku",
    audit_param_value: { attributes_list: [{ sku: "TSHIRT-BLUE-M", attributes_sets: [] }] },
    kq: false,
  },
};

export const AUDIT_COUNT_EXAMPLE = { audit_line_id: "1", good_qty: 5, damaged_qty: 1 };

/** The station API's bodies, by route. */
export const STATION_EXAMPLES = {
  login: { user: "alice" },
  mode: { mode: "pick" },
  rack: { msu: "M1", locations: ["S1", "S2"] },
  pick: { externalServiceRequestId: "ORDER-1001", line: "ORDER-1001-1", location: "S1", quantity: 2 },
  pickException: {
    externalServiceRequestId: "ORDER-1001",
    line: "ORDER-1001-2",
    location: "S2",
    quantity: 1,
    reason: "item_missing",
  },
  put: { externalServiceRequestId: "PUT-2001", product_sku: "TSHIRT-BLUE-M", location: "S1", quantity: 6 },
  putException: {
    externalServiceRequestId: "PUT-2001",
    product_sku: "TSHIRT-BLUE-M",
    quantity: 1,
    reason: "back_physically_damaged",
  },
  putBackStage: { ppsBinId: "B2" },
  stock: { location: "S1", msu: "M1", product_sku: "TSHIRT-BLUE-M", quantity: 20 },
  scan: { seat: "front", barcode: "4006381333931" },
  keyin: { quantity: 2 },
  press: { ppsBinId: "B1", button: "confirm" },
  sensor: { ppsBinId: "B1", active: true },
};

export const SCREEN_ACTION_EXAMPLES = {
  login: { type: "login", user: "alice" },
  scan: { type: "scan", barcode: "4006381333931" },
  confirm: { type: "confirm" },
  exception: { type: "exception", code: "ITEM_MISSING" },
  problem: { type: "problem", kind: "damaged", quantity: 1, confirmed: true, version: 1764200000000 },
  skip_label: { type: "skip_label", bin: "2" },
};
