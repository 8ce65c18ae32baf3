/** One segment of a path, encoded: an element's name or id, a field, a state. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** Where an element's routes start: `/api/v2/smart-elements/<ref>`, or under its structure when one is named (family-checked). */
export function elementPath(ref: string | number, structure?: string): string {
  const collection = structure === undefined ? "/api/v2/smart-elements" : `/api/v2/smart-structures/${segment(structure)}/smart-elements`;
  return `${collection}/${segment(ref)}`;
}
