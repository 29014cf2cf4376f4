/**
 * An item as search_v2 answers it, assembled by SQLite from the stored JSON text and handed over as
 * its UTF-8 bytes: the item's document (a megabyte of `imageData`, say) is never parsed into objects
 * on the agent's heap, where it would grow about twentyfold (docs/limits.md#item-documents). The
 * shape is domain/item.view.ts's `itemView`, member for member and in the same order; a test holds
 * the two to the same answer.
 */
import { uniqueKeysOf } from "../domain/item.identity.js";
import type { ItemSchema } from "../domain/item.schema.js";
import { type DimensionUnit, uomObject, type WeightUnit } from "../domain/uom.js";
import type { Sqlite } from "./open.js";

/** The small parts of an item the answer computes from: its uniqueness groups, units and times. */
const PARTS = `SELECT schema_json -> '$.unique' AS uniqueJson,
    doc ->> '$.attributes.weight.uom.unit' AS weightUnit, doc ->> '$.attributes.dimension.uom.unit' AS dimensionUnit,
    created_at AS createdAt, updated_at AS updatedAt
  FROM items WHERE id = ?`;

/**
 * `json_set` keeps a member where it is and appends a new one, as the object spread of `itemView`
 * does; `doc -> path` is the member's JSON text (SQL NULL when absent, which json_object writes as null).
 */
const ITEM_JSON = `json_object(
    'id', i.id,
    'clientItemId', i.client_item_id,
    'clientCategoryId', i.doc -> '$.clientCategoryId',
    'uom', NULL,
    'serialised', json('false'),
    'displayKeyList', json(@displayKeyList),
    'schema', json(i.schema_json),
    'attributes', json_set(i.doc -> '$.attributes', '$.id', i.id, '$.weight.uom', json(@weightUom),
      '$.dimension.uom', json(@dimensionUom), '$.volume', NULL, '$.status', NULL),
    'productAttributes', i.doc -> '$.productAttributes',
    'jsonProductAttributes', i.doc -> '$.productAttributes',
    'jsonSchema', json(i.schema_json),
    'barcodeList', (SELECT json_group_array(json_object('id', b.id, 'barcode', b.barcode))
       FROM (SELECT id, barcode FROM barcodes WHERE item_id = i.id AND level_path IS NULL ORDER BY id) b),
    'description', i.doc -> '$.description',
    'imageUrl', i.doc -> '$.imageUrl',
    'imageData', i.doc -> '$.imageData',
    'itemConfig', i.doc -> '$.itemConfig',
    'createdOn', @createdOn,
    'updatedOn', @updatedOn
  )`;

const ANSWER = `SELECT CAST(${ITEM_JSON} AS BLOB) AS bytes FROM items i WHERE i.id = @id`;
/** The answer's size alone: SQLite assembles it and keeps the bytes (docs/limits.md#item-documents). */
const ANSWER_SIZE = `SELECT length(CAST(${ITEM_JSON} AS BLOB)) AS size FROM items i WHERE i.id = @id`;

interface Parts {
  uniqueJson: string;
  weightUnit: WeightUnit;
  dimensionUnit: DimensionUnit;
  createdAt: number;
  updatedAt: number;
}

function prepareAnswer<Row>(sqlite: Sqlite, sql: string) {
  const parts = sqlite.prepare<[number], Parts>(PARTS);
  const answer = sqlite.prepare<[Record<string, unknown>], Row>(sql);
  return (id: number): Row | undefined => {
    const p = parts.get(id);
    if (!p) return undefined;
    // the uniqueness groups are bounded by validation (20 groups of 20 names): small to parse
    const unique = JSON.parse(p.uniqueJson) as ItemSchema["unique"];
    return answer.get({
      id,
      displayKeyList: JSON.stringify(uniqueKeysOf({ unique, type: "object" })),
      weightUom: JSON.stringify(uomObject(p.weightUnit)),
      dimensionUom: JSON.stringify(uomObject(p.dimensionUnit)),
      createdOn: new Date(p.createdAt).toISOString(),
      updatedOn: new Date(p.updatedAt).toISOString(),
    });
  };
}

/**
 * `answerOf`: the item's answer as JSON bytes (undefined when there is no such item); `answerSizeOf`:
 * its size in bytes, measured by SQLite without handing the answer over (a search measures its answer
 * first and assembles each item again only when its client takes it).
 */
export function prepareItemAnswers(sqlite: Sqlite) {
  const answer = prepareAnswer<{ bytes: Buffer }>(sqlite, ANSWER);
  const size = prepareAnswer<{ size: number }>(sqlite, ANSWER_SIZE);
  const stored = sqlite.prepare<[number], { answerBytes: number | null }>(
    "SELECT answer_bytes AS answerBytes FROM items WHERE id = ?",
  );
  const store = sqlite.prepare<[number | null, number]>("UPDATE items SET answer_bytes = ? WHERE id = ?");
  const answerSizeOf = (id: number): number | undefined => size(id)?.size;
  return {
    answerOf: (id: number): Buffer | undefined => answer(id)?.bytes,
    answerSizeOf,
    /**
     * The answer's size as kept when the item was written: `null` for an item written before sizes
     * were kept (measure it), undefined when there is no such item.
     */
    storedAnswerSizeOf: (id: number): number | null | undefined => stored.get(id)?.answerBytes,
    /** Keeps the size of the item's answer as written now (once its row and barcodes are in). */
    keepAnswerSize(id: number): void {
      store.run(answerSizeOf(id) ?? null, id);
    },
  };
}
