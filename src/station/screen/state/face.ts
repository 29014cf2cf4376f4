/**
 * A slot's place on its rack face, read from the slot id (pure; docs/station.md#operator-screen "Task
 * card"). Slot ids are the warehouse's own (the interface does not define them: tests and sites use
 * `S1`, `S50`, `B-1`), so only one form is read: `<rack>-<row letter><column>`, e.g. `M1-A1` (rack M1,
 * row A = 1, column 1) or `MSU7-C12`. Rows are the letters A–Z from the top, columns the numbers from
 * the left. Any other id has no known place (null): the page shows the slot's id in large type.
 * The face's size is the smallest grid that holds every known slot of the same rack (the slots of the
 * lines on the presented racks), at least the slot's own row and column.
 */

export interface Face {
  rows: number;
  cols: number;
  row: number;
  col: number;
}

const FORM = /^(.+)-([A-Z])([1-9][0-9]?)$/;

/** The slot's rack, row and column, or null when its id is not of the form. */
export function slotPlace(slot: string): { rack: string; row: number; col: number } | null {
  const m = FORM.exec(slot);
  if (!m) return null;
  const [, rack, letter, digits] = m as unknown as [string, string, string, string];
  return { rack, row: letter.charCodeAt(0) - 64, col: Number(digits) };
}

/** The slot's place on its face, sized by the other known slots of its rack; null when unknown. */
export function faceOf(slot: string, known: readonly string[]): Face | null {
  const at = slotPlace(slot);
  if (!at) return null;
  let rows = at.row;
  let cols = at.col;
  for (const other of known) {
    const p = slotPlace(other);
    if (!p || p.rack !== at.rack) continue;
    rows = Math.max(rows, p.row);
    cols = Math.max(cols, p.col);
  }
  return { rows, cols, row: at.row, col: at.col };
}
