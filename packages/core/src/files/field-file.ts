import type { Stamped } from "../scope/definitions.ts";
import { locateElement, type LocateRules } from "../elements/locate-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import { isColumn, visibilityOf } from "../structures/smart-field.ts";
import { fieldIndex } from "../structures/smart-structure.ts";
import { parseFileValue } from "../values/file-value.ts";

/** The vault file a file or image Smart Field holds, and the name a download of it is given. */
export interface FieldFile {
  readonly file: VaultFile;
  readonly name: string;
}

const INDEX = /^-?\d{1,9}$/;

/**
 * The file held in field `attrid` of `element` at `index` (-1 for a field outside an array and
 * not multiple, else the row or the item). A field of visibility I answers as an unknown field:
 * it is never disclosed. `docid` names the element in the errors as the request named it.
 */
export async function fileInField(scope: RequestScope, element: ElementRevision, attrid: string, index: string, docid: string): Promise<FieldFile> {
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

/**
 * How the files route finds its element: the original's codes (CRUD0200, CRUD0201...). An element
 * in the trash keeps its files, as there: its values (read from the trash) link to this route.
 */
const FILE_RULES: LocateRules = {
  notFound: "CRUD0200", deleted: null, unknownFamily: "ROUTES0105", notOfFamily: "CRUD0220",
  forbidden: "CRUD0201", permission: "view",
};

export interface FieldFileOptions extends Stamped {
  /** The element must belong to this structure (the smart-structures/<family>/ variant). */
  readonly family?: string | undefined;
  /** A revision number: the file that revision holds (the revisions/<revision>/ variant); the latest by default. */
  readonly revision?: string | undefined;
}

/** A stored file, ready to send. */
export interface FieldFileDownload extends FieldFile {
  readonly bytes: Uint8Array;
  /** Strong ETag: files are stored by content, so the same bytes keep the same tag. */
  readonly etag: string;
}

/**
 * GET .../files/<attrid>/<index>/<fileName>: the file a field of an element (or of one of its
 * revisions) holds, for a principal who may view the element. The file name in the URL is only
 * for people reading it: the stored name is the download's.
 */
export async function readFieldFile(scope: RequestScope, docid: string, attrid: string, index: string, options: FieldFileOptions = {}): Promise<FieldFileDownload> {
  const latest = await locateElement(scope, docid, FILE_RULES, options.family);
  let holder = latest;
  if (options.revision !== undefined) {
    const wanted = /^\d{1,9}$/.test(options.revision) ? Number(options.revision) : NaN;
    const revision = (await scope.repos.elements.revisions(latest.initid)).find((r) => r.revision === wanted);
    if (!revision) throw new LineageError("CRUD0221", [options.revision, docid]);
    holder = revision;
  }
  const { file, name } = await fileInField(scope, holder, attrid, index, docid);
  const bytes = await scope.repos.vault.read(file.id);
  if (!bytes) throw new LineageError("ROUTES0119", [attrid, index, docid]);
  return { file, name, bytes, etag: `"${file.sha256}"` };
}
