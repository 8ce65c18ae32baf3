import { CONSULT_RULES, locateElement } from "../elements/locate-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { fileInField, type FieldFile } from "../files/field-file.ts";

/** The vault file an image Smart Field holds, and the name a download of it starts from. */
export type FieldImage = FieldFile;

/**
 * The image held in field `attrid` of element `docid` at `index` (-1 for a field outside an array,
 * the row otherwise), for a principal who may view the element (api-v2.md, Images, rule 3).
 * A field of visibility I answers as an unknown field: it is never disclosed.
 */
export async function locateFieldImage(scope: RequestScope, docid: string, attrid: string, index: string): Promise<FieldImage> {
  const element = await locateElement(scope, docid, CONSULT_RULES);
  return fileInField(scope, element, attrid, index, docid);
}
