/**
 * Units of measure (docs/interface.md: "Unit codes"). Ids are fixed so that search results are stable across
 * stations; conversion factors are to the smallest unit of each type (MM for length, G for weight).
 */
export const DIMENSION_UNITS = ["MM", "CM", "M"] as const;
export const WEIGHT_UNITS = ["G", "KG"] as const;
export type DimensionUnit = (typeof DIMENSION_UNITS)[number];
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

export interface UomObject {
  id: number;
  type: "DIMENSION" | "WEIGHT";
  unit: DimensionUnit | WeightUnit;
  conversionFactor: number;
}

const UOMS: Record<DimensionUnit | WeightUnit, UomObject> = {
  MM: { id: 1, type: "DIMENSION", unit: "MM", conversionFactor: 1 },
  CM: { id: 2, type: "DIMENSION", unit: "CM", conversionFactor: 10 },
  M: { id: 3, type: "DIMENSION", unit: "M", conversionFactor: 1000 },
  G: { id: 4, type: "WEIGHT", unit: "G", conversionFactor: 1 },
  KG: { id: 5, type: "WEIGHT", unit: "KG", conversionFactor: 1000 },
};

export function uomObject(unit: DimensionUnit | WeightUnit): UomObject {
  return { ...UOMS[unit] };
}
