import { formatTimestamp } from "./timestamp.js";

/**
 * The spec's Service Request object (docs/interface.md: "Service Request object (generic)", Container, Product),
 * built from stored rows. Pure: the caller passes everything it needs.
 */
export interface ActualData {
  id: number;
  productId: number | null;
  lineId: number | null;
  state: string;
  location: string | null;
  itemId: number | null;
  quantity: number;
  /** productAttributes of the actual product: pdfa_values, package_name, package_count */
  product: Record<string, unknown>;
  createdOn: number;
}

export interface LineData {
  id: number;
  externalId: string;
  state: string;
  status: string;
  expected: number;
  filters: string[];
  attributes: Record<string, unknown> | null;
  expectationIds: { containerId: number; productId: number };
  createdOn: number;
  updatedOn: number;
}

export interface RequestData {
  id: number;
  externalId: string;
  type: "PICK" | "PUT";
  state: string;
  status: string;
  attributes: Record<string, unknown> | null;
  /** Station context for notifications: pps_id, pps_bin_id, pps_seat_name, user_name, execution_id. */
  execution: Record<string, unknown> | null;
  /** PUT expectations with assigned ids. */
  expectations: PutExpectations | null;
  lines: LineData[];
  actuals: ActualData[];
  receivedOn: number;
  createdOn: number;
  updatedOn: number;
}

export interface PutExpectations {
  containers: Array<{
    id: number;
    products: Array<{
      id: number;
      productQuantity: number;
      productAttributes: Record<string, unknown>;
      /** the item its pdfa_values named, once resolved: the product's `uid` (docs/decisions.md#item-identity) */
      itemId?: number;
    }>;
  }>;
}

function container(
  id: number,
  state: string | null,
  products: unknown[],
  attrs: Record<string, unknown> | null,
  created: string,
  updated: string,
) {
  return {
    id,
    state,
    type: "VIRTUAL",
    barcode: null,
    products,
    containers: null,
    containerAttributes: attrs,
    createdOn: created,
    updatedOn: updated,
  };
}

function product(
  id: number,
  quantity: number,
  attrs: Record<string, unknown>,
  itemId: number | null,
  t: string,
) {
  return {
    id,
    uid: itemId === null ? null : String(itemId),
    uidType: itemId === null ? null : "ITEM_ID",
    possibleUids: null,
    productQuantity: quantity,
    productAttributes: attrs,
    createdOn: t,
    updatedOn: t,
  };
}

export function actualContainer(a: ActualData) {
  const t = formatTimestamp(a.createdOn);
  return container(
    a.id,
    a.state,
    [product(a.productId ?? a.id, a.quantity, a.product, a.itemId, t)],
    a.location === null ? null : { location: a.location },
    t,
    t,
  );
}

function lineView(line: LineData, actuals: ActualData[], received: string) {
  const created = formatTimestamp(line.createdOn);
  const updated = formatTimestamp(line.updatedOn);
  const mine = actuals.filter((a) => a.lineId === line.id);
  return {
    id: line.id,
    externalServiceRequestId: line.externalId,
    type: "PICK_LINE",
    serviceRequests: null,
    expectations: {
      containers: [
        container(
          line.expectationIds.containerId,
          null,
          [
            product(
              line.expectationIds.productId,
              line.expected,
              { filter_parameters: line.filters },
              null,
              created,
            ),
          ],
          null,
          created,
          created,
        ),
      ],
    },
    actuals: mine.length ? { containers: mine.map(actualContainer) } : null,
    attributes: line.attributes,
    receivedOn: received,
    createdOn: created,
    updatedOn: updated,
    status: line.status,
    state: line.state,
  };
}

/**
 * Root actuals: a put's transactions; for a pick every container of every line, in the order they were
 * recorded (docs/decisions.md: the root aggregates its lines, so a subscriber reading only the root
 * sees all that happened), null before the first.
 */
function rootActuals(r: RequestData) {
  if (r.type === "PUT") return { containers: r.actuals.map(actualContainer) };
  return r.actuals.length ? { containers: r.actuals.map(actualContainer) } : null;
}

/**
 * The request as the spec shows it. Pick actuals are carried by the lines they belong to and gathered
 * at the root; put actuals by the root (a put has no lines). `attributes` joins the client's attributes with the station context.
 */
export function requestView(r: RequestData) {
  const received = formatTimestamp(r.receivedOn);
  const attributes = r.attributes || r.execution ? { ...(r.attributes ?? {}), ...(r.execution ?? {}) } : null;
  const created = formatTimestamp(r.createdOn);
  return {
    id: r.id,
    externalServiceRequestId: r.externalId,
    type: r.type,
    serviceRequests: r.type === "PICK" ? r.lines.map((l) => lineView(l, r.actuals, received)) : null,
    expectations:
      r.type === "PUT" && r.expectations
        ? {
            containers: r.expectations.containers.map((c) =>
              container(
                c.id,
                null,
                c.products.map((p) =>
                  product(p.id, p.productQuantity, p.productAttributes, p.itemId || null, created),
                ),
                null,
                created,
                created,
              ),
            ),
          }
        : null,
    actuals: rootActuals(r),
    attributes,
    receivedOn: received,
    createdOn: created,
    updatedOn: formatTimestamp(r.updatedOn),
    status: r.status,
    state: r.state,
  };
}

export type RequestView = ReturnType<typeof requestView>;
