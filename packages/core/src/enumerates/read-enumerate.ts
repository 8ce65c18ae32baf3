import * as v from "valibot";
import type { Enumerate } from "./enumerate.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { fieldIndex, findField, type SmartStructure } from "../structures/smart-structure.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { enumerateIndex, type EnumItemView } from "./enumerate-index.ts";
import { ENUM_OPERATORS, ENUM_ORDERS, EnumerateQuerySchema, type EnumOperator, type EnumOrder } from "./enumerate-query.schema.ts";

export { ENUM_OPERATORS, ENUM_ORDERS, type EnumOperator, type EnumOrder } from "./enumerate-query.schema.ts";

/** The query variables of an Enumerates route, as strings (missing or empty: the default). */
export interface EnumerateQuery {
  readonly keyword?: string | undefined;
  readonly operator?: string | undefined;
  readonly orderBy?: string | undefined;
}

/** The applied filter, echoed as `requestParameters`. */
export interface EnumerateParameters {
  readonly operator: EnumOperator;
  readonly keyword: string;
  readonly orderBy: EnumOrder;
}

/** Which enumerate: by its reference, or as the enumerate of a field of a structure. */
export type EnumerateTarget = { readonly enumerate: string } | { readonly family: string; readonly field: string };

/**
 * The data of both Enumerates routes. As in the original (original-notes.md 2.9),
 * the last item of the definition also shows at top level; `uri` is always there.
 */
export interface EnumerateData extends Partial<EnumItemView> {
  readonly uri: string;
  readonly requestParameters: EnumerateParameters;
  readonly enumItems: readonly EnumItemView[];
}

/**
 * Checks the query variables: `operator` startswith|contains (default contains,
 * else 400 CRUD0402), `orderBy` none|key|label (default none, else 400 CRUD0403).
 * Values are case-sensitive, as in the original.
 */
export function parseEnumerateQuery(query: EnumerateQuery = {}): EnumerateParameters {
  // An empty variable is no variable: the schema's default applies.
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = v.safeParse(EnumerateQuerySchema, given);
  if (parsed.success) return parsed.output;
  const { operator = "", orderBy = "" } = query;
  if (!v.is(EnumerateQuerySchema.entries.operator, operator || undefined)) throw new LineageError("CRUD0402", [operator, ENUM_OPERATORS.join(", ")]);
  throw new LineageError("CRUD0403", [orderBy, ENUM_ORDERS.join(", ")]);
}

/**
 * The items of an enumerate matching the parameters, in the reader's locale:
 * the keyword is looked for in the translated label, ignoring case and accents;
 * `label` orders with the locale's collator, `key` in natural order.
 * @example
 * lookupEnumItems(categories, { keyword: "tech", operator: "startswith", orderBy: "label" }, "fr");
 */
export function lookupEnumItems(enumerate: Enumerate, parameters: EnumerateParameters, locale: string): EnumItemView[] {
  const index = enumerateIndex(enumerate, locale);
  let found: readonly number[] = index.listed;
  if (parameters.keyword !== "") found = index.match(parameters.keyword, parameters.operator);
  if (parameters.orderBy !== "none") {
    const rank = parameters.orderBy === "label" ? index.labelRank() : index.keyRank();
    found = [...found].sort((a, b) => (rank[a] as number) - (rank[b] as number));
  }
  return found.map((i) => index.views[i] as EnumItemView);
}

/** The data of an Enumerates route for an enumerate (undefined: an enum field whose enumerate is missing, served empty). */
export function enumerateData(enumerate: Enumerate | undefined, parameters: EnumerateParameters, locale: string, uri: string): EnumerateData {
  if (!enumerate) return { uri, requestParameters: parameters, enumItems: [] };
  const last = enumerateIndex(enumerate, locale).views.at(-1);
  return { ...last, uri, requestParameters: parameters, enumItems: lookupEnumItems(enumerate, parameters, locale) };
}

/** A field of a structure by id, exactly or else ignoring case (the original's ids are case-insensitive). */
function fieldOf(structure: SmartStructure, id: string): ResolvedField | undefined {
  const exact = findField(structure, id);
  if (exact) return exact;
  const lower = id.toLowerCase();
  for (const field of fieldIndex(structure).values()) if (field.id.toLowerCase() === lower) return field;
  return undefined;
}

/** The enum field `id` of a structure: 404 CRUD0400 when unknown (or invisible), 403 CRUD0401 when it is no enum. */
function enumField(structure: SmartStructure, id: string): ResolvedField {
  const field = fieldOf(structure, id);
  if (!field || visibilityOf(field) === "I") throw new LineageError("CRUD0400", [id, structure.name], { reason: `Attribute ${id} not found` });
  if (field.type !== "enum") throw new LineageError("CRUD0401", [id, field.type, structure.name], { reason: `Attribute ${id} is not an enum` });
  return field;
}

/**
 * GET /api/v2/smart-structures/<family>/enumerates/<field> and
 * GET /api/v2/enumerates/<enum>/ (api-v2.md, Enumerates). Checks come in the
 * original's order: the structure, the query, then the field (404 ENUM0404
 * for an unknown enumerate reference).
 * @example
 * readEnumerate(scope, { family: "ARTICLE", field: "ar_category" }, { keyword: "tech" });
 */
export function readEnumerate(scope: RequestScope, target: EnumerateTarget, query: EnumerateQuery = {}): EnumerateData {
  if ("family" in target) {
    const structure = scope.structure(target.family);
    if (!structure) throw new LineageError("CRUD0200", [target.family], { reason: "Family not found" });
    const parameters = parseEnumerateQuery(query);
    const field = enumField(structure, target.field);
    const uri = `/api/v2/smart-structures/${encodeURIComponent(structure.name)}/enumerates/${encodeURIComponent(field.id)}`;
    return enumerateData(field.enum === undefined ? undefined : scope.enumerate(field.enum), parameters, scope.locale, uri);
  }
  const parameters = parseEnumerateQuery(query);
  const enumerate = scope.enumerate(target.enumerate);
  if (!enumerate) throw new LineageError("ENUM0404", [target.enumerate]);
  return enumerateData(enumerate, parameters, scope.locale, `/api/v2/enumerates/${encodeURIComponent(enumerate.name)}/`);
}
