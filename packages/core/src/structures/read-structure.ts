import { sha256Hex } from "../crypto/sha256.ts";
import { elementEtag } from "../elements/etag.ts";
import { iconUri, propertyOrder } from "../elements/element-view.ts";
import { parseFieldsSelection } from "../elements/fields-selection.ts";
import { SYSTEM_ACCOUNT } from "../bundle/system-principal.ts";
import { accountReference, lifecycleReference, noReference, securityProperty, structureReference } from "../elements/property-references.ts";
import type { Stamped } from "../scope/definitions.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { translate } from "../i18n/label.ts";
import { describeStructure, type FieldDescription } from "./structure-description.ts";
import type { SmartStructure } from "./smart-structure.ts";

/** A Smart Structure as GET /api/v2/smart-structures/<name> serves it, with its ETag. */
export interface StructureReading {
  readonly etag: string;
  readonly data: {
    document: { uri: string; properties?: Record<string, unknown>; attributes?: Record<string, never> };
    family?: { structure: Record<string, FieldDescription> };
  };
}

export interface StructureReadOptions extends Stamped {
  readonly fields?: string | undefined;
}

/** The URI of a Smart Structure, as the original names it. */
export function structureUri(name: string): string {
  return `/api/v2/smart-structures/${name}.json`;
}

/**
 * What this route answers without `fields`: the original's default (properties, and attributes,
 * which a structure has none of), and the fields' definitions, which are what a client reads a
 * structure for.
 */
const DEFAULT_FIELDS = "document.properties,document.attributes,family.structure";

/**
 * A property of a structure. As the original's families, a structure's `fromid` is its parent's id
 * (0 when it extends none) and `fromname` its parent's name (null when none).
 */
function propertyValue(name: string, structure: SmartStructure, parent: SmartStructure | undefined, scope: RequestScope): unknown {
  const { locale } = scope;
  switch (name) {
    case "id": case "initid": return structure.id;
    case "title": return translate(structure.title ?? structure.name, locale);
    case "icon": return iconUri(structure);
    case "name": return structure.name;
    case "revision": case "locked": return 0;
    case "fromid": return parent?.id ?? 0;
    case "fromname": return parent?.name ?? null;
    case "status": return "alive";
    case "doctype": return "C";
    case "wid": return structure.lifecycle ?? null;
    case "profid": return structure.profile ?? null;
    // As the original's families: the family of a structure is its parent (an empty one for none).
    case "family": return structureReference(parent, locale);
    // Structures come from bundles, imported by the system account (id 0), which is no account: the original's answer for none.
    case "owner": return String(SYSTEM_ACCOUNT.id);
    case "createdBy": return accountReference(undefined);
    case "revisionData": return { isModified: false, id: structure.id, number: 0, createdBy: accountReference(undefined) };
    case "workflow": return lifecycleReference(structure.lifecycle ? scope.lifecycle(structure.lifecycle) : undefined, locale);
    // A structure is changed by bundles only, never through the API (CRUD0213).
    case "security": return securityProperty({ fixed: false, lock: undefined, readOnly: true, profile: structure.profile, fieldAccess: structure.fieldAccess });
    case "lmodify": return "N";
    case "type": return "family";
    case "usage": return "normal";
    case "usefor": return "N";
    case "dprofid": return 0;
    case "affected": case "note": case "viewController": return noReference();
    case "allocated": case "confidential": case "cvid": case "postitid": case "prelid": case "tags": case "version": return null;
    default: return undefined;
  }
}

const digests = new WeakMap<SmartStructure, string>();

/** What the structure's ETag changes with: its whole definition (structures have no modification date). */
function definitionDigest(structure: SmartStructure): string {
  let digest = digests.get(structure);
  if (digest === undefined) {
    digest = sha256Hex(JSON.stringify(structure));
    digests.set(structure, digest);
  }
  return digest;
}

/**
 * GET /api/v2/smart-structures/<name> (the original's FamilyData): the structure's properties and
 * its fields' definitions in the reader's locale, visibility I fields left out. 404 ROUTES0105
 * for an unknown structure. Any authenticated account may read a definition.
 */
export async function readStructure(scope: RequestScope, name: string, options: StructureReadOptions = {}): Promise<StructureReading> {
  const selection = parseFieldsSelection(options.fields?.trim() ? options.fields : DEFAULT_FIELDS, "one");
  const structure = scope.structure(name);
  if (!structure) throw new LineageError("ROUTES0105", [name], { userMessage: `Family "${name}" not found` });
  const document: StructureReading["data"]["document"] = { uri: structureUri(structure.name) };
  const parent = structure.extends === undefined ? undefined : scope.structure(structure.extends);
  if (selection.properties) {
    const properties: Record<string, unknown> = {};
    for (const property of propertyOrder(selection.properties)) {
      const value = propertyValue(property, structure, parent, scope);
      if (value !== undefined) properties[property] = value;
    }
    document.properties = properties;
  }
  // A structure holds no values of its own: the original answers its attributes empty.
  if (selection.attributes) document.attributes = {};
  const data: StructureReading["data"] = { document };
  if (selection.structure) data.family = { structure: describeStructure(structure, scope.locale) };
  const etag = await elementEtag(structure.id, definitionDigest(structure), "structure", scope.principal, scope.locale);
  return { etag, data };
}
