import { LineageError } from "../errors/lineage-error.ts";
import { CONSULT_RULES, locateElement } from "../elements/locate-element.ts";
import type { ReadScope } from "../elements/read-scope.ts";
import type { FieldValue } from "../element/smart-element.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import { isColumn, visibilityOf } from "../structure/smart-field.ts";
import { fieldIndex } from "../structure/smart-structure.ts";
import { parseFileValue } from "../values/file-value.ts";

/** The vault file an image Smart Field holds, and the name a download of it starts from. */
export interface FieldImage {
  readonly file: VaultFile;
  readonly name: string;
}

const INDEX = /^-?\d{1,9}$/;

/**
 * The image held in field `attrid` of element `docid` at `index` (-1 for a field outside an array,
 * the row otherwise), for a principal who may view the element (api-v2.md, Images, rule 3).
 * A field of visibility I answers as an unknown field: it is never disclosed.
 */
export async function locateFieldImage(scope: ReadScope, docid: string, attrid: string, index: string): Promise<FieldImage> {
  const element = await locateElement(scope, docid, CONSULT_RULES);
  const field = fieldIndex(scope.structure(element.structure) ?? { name: element.structure, fields: [] }).get(attrid);
  if (!field || visibilityOf(field) === "I" || field.type === "array") throw new LineageError("ROUTES0116", [attrid, docid]);
  if (field.type !== "image" && field.type !== "file") throw new LineageError("ROUTES0124", [attrid, docid]);
  if (!INDEX.test(index) || Number(index) < -1) throw new LineageError("ROUTES0123", [index, attrid, docid]);
  const row = Number(index);
  const several = isColumn(field) || field.multiple === true;
  if (several && row === -1) throw new LineageError("ROUTES0121", [index, attrid, docid]);
  if (!several && row !== -1) throw new LineageError("ROUTES0122", [index, attrid, docid]);
  const stored: FieldValue | undefined = element.values[attrid];
  const value = several ? (Array.isArray(stored) ? stored[row] : undefined) : stored;
  if (value === undefined || value === null || value === "") throw new LineageError("ROUTES0118", [attrid, index, docid]);
  const parsed = typeof value === "string" ? parseFileValue(value) : undefined;
  if (!parsed) throw new LineageError("ROUTES0120", [attrid, index, docid]);
  await scope.load({ vaultFiles: [parsed.vaultId] });
  const file = scope.vaultFile(parsed.vaultId);
  if (!file) throw new LineageError("ROUTES0119", [attrid, index, docid]);
  return { file, name: parsed.name || file.name };
}
