import * as v from "valibot";
import type { Principal } from "../accounts/principal.ts";
import { findEnumItem, type Enumerate } from "../enumerates/enumerate.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { INDEXED_ORDER_FIELD_TYPES } from "../elements/list-order.ts";
import { isColumn, visibilityOf, type FieldType, type ResolvedField } from "../structures/smart-field.ts";
import { findField, type SmartStructure } from "../structures/smart-structure.ts";
import { encodeFieldValue } from "../values/field-value-codec.ts";
import type { ValueContext } from "../values/value-context.ts";
import {
  FILTER_OPERATORS, FILTER_PROPERTIES, foldCase, type ElementFilter, type FieldCondition, type FilterComparison, type FilterNode, type FilterOperator,
  type FilterProperty, type FilterShape, type FilterValue, type PropertyCondition,
} from "./element-filter.ts";
import { FILTER_LIMITS, FilterSchema, type FilterConditionInput, type FilterGroupInput, type FilterInput } from "./filter.schema.ts";

/** The structures a list holds, as the caller sees them (field access applied): what a field condition may name. */
export interface FilterList {
  readonly structures: readonly SmartStructure[];
}

/** What typing a filter's values looks up. */
export interface FilterLookups {
  readonly principal: Principal;
  enumerate(name: string): Enumerate | undefined;
  /** The id of the account with this login, if any. */
  accountId(login: string): Promise<number | undefined>;
  /** The initid of the lineage with this logical name, if any. */
  initidOf(name: string): Promise<number | undefined>;
}

/** A filter as applied: for the store, and as echoed in `requestParameters.filter`. */
export interface ParsedFilter {
  readonly filter: ElementFilter;
  readonly echo: FilterGroupInput;
}

const ORDERED: readonly FilterOperator[] = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "isempty", "isnotempty"];
const TEXTUAL: readonly FilterOperator[] = [...ORDERED, "startswith", "contains", "doesnotcontain"];
const KEYED: readonly FilterOperator[] = ["eq", "neq", "in", "isempty", "isnotempty"];
const PRESENCE: readonly FilterOperator[] = ["isempty", "isnotempty"];
const TEXT_OPERATORS: ReadonlySet<FilterOperator> = new Set(["startswith", "contains", "doesnotcontain"]);

/** The operators each field type takes; a password takes none, nor does an array (its columns hold the values). */
const OPERATORS_OF: Readonly<Record<FieldType, readonly FilterOperator[]>> = {
  text: TEXTUAL, longtext: TEXTUAL, htmltext: TEXTUAL,
  int: ORDERED, double: ORDERED, money: ORDERED, date: ORDERED, timestamp: ORDERED, time: ORDERED,
  enum: KEYED, docid: KEYED, account: KEYED, color: KEYED,
  file: PRESENCE, image: PRESENCE, password: [], array: [],
};

/** The type each property compares as. */
const PROPERTY_TYPES: Readonly<Record<FilterProperty, { readonly type: "text" | "key" | "int" | "instant" | "account"; readonly operators: readonly FilterOperator[] }>> = {
  title: { type: "text", operators: TEXTUAL }, name: { type: "text", operators: TEXTUAL }, state: { type: "text", operators: TEXTUAL },
  fromname: { type: "key", operators: ["eq", "neq", "in"] }, initid: { type: "int", operators: ORDERED }, revision: { type: "int", operators: ORDERED },
  owner: { type: "account", operators: ["eq", "neq", "in"] }, cdate: { type: "instant", operators: ORDERED }, mdate: { type: "instant", operators: ORDERED },
};

/** The operators a condition on this field type or property takes (none for an unknown name): what a filter form offers. */
export function filterOperatorsOf(typeOrProperty: string): readonly FilterOperator[] {
  if (Object.hasOwn(PROPERTY_TYPES, typeOrProperty)) return PROPERTY_TYPES[typeOrProperty as FilterProperty].operators;
  return Object.hasOwn(OPERATORS_OF, typeOrProperty) ? OPERATORS_OF[typeOrProperty as FieldType] : [];
}

/** Never asked: the scalar types typed here look nothing up. */
const NO_LOOKUPS: ValueContext = {
  enumerate: () => undefined, element: () => undefined, vaultFile: () => undefined, accountByLogin: () => undefined,
};

const badValue = (field: string, why: string) => new LineageError("FILTER0004", [field, why]);

function describe(raw: unknown): string {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw) ?? String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Reads the `filter` query variable (JSON) or an object given by embedded code into its checked shape. */
export function readFilterInput(raw: unknown): FilterInput {
  let input = raw;
  if (typeof raw === "string") {
    try {
      input = JSON.parse(raw);
    } catch {
      throw new LineageError("FILTER0001", ["the filter is not JSON"]);
    }
  }
  const result = v.safeParse(FilterSchema, input);
  if (!result.success) throw new LineageError("FILTER0001", [shapeProblem(input)]);
  let conditions = 0;
  const walk = (node: FilterInput, depth: number) => {
    if (!("logic" in node)) {
      conditions += 1;
      return;
    }
    if (depth > FILTER_LIMITS.depth) throw new LineageError("FILTER0001", [`groups nest at most ${FILTER_LIMITS.depth} levels`]);
    for (const child of node.filters) walk(child, depth + 1);
  };
  walk(result.output, 1);
  if (conditions > FILTER_LIMITS.conditions) throw new LineageError("FILTER0001", [`a filter holds at most ${FILTER_LIMITS.conditions} conditions, not ${conditions}`]);
  return result.output;
}

/** Says where a filter leaves the shape: the first item that is neither a condition nor a group, by its path. */
function shapeProblem(input: unknown, path = "filter", depth = 1): string {
  if (depth > FILTER_LIMITS.depth + 1) return `groups nest at most ${FILTER_LIMITS.depth} levels`;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return `${path} must be an object: a condition {field, operator, value} or a group {logic, filters}`;
  const item = input as Record<string, unknown>;
  if ("logic" in item || "filters" in item) {
    if (item.logic !== "and" && item.logic !== "or") return `${path}.logic must be "and" or "or", not ${describe(item.logic)}`;
    if (!Array.isArray(item.filters)) return `${path}.filters must be a list`;
    for (const [i, child] of item.filters.entries()) {
      if (!v.is(FilterSchema, child)) return shapeProblem(child, `${path}.filters[${i}]`, depth + 1);
    }
    return `${path} is not a filter`;
  }
  if (typeof item.field !== "string" || item.field === "") return `${path}.field must be a field id or a property`;
  if (typeof item.operator !== "string") return `${path}.operator is missing`;
  return `${path}.operator "${describe(item.operator)}" is not one of ${FILTER_OPERATORS.join(", ")}`;
}

/**
 * Checks a filter against a list (its fields as the caller sees them: a hidden field is unknown,
 * with the message of a field that does not exist) and types its values: FILTER0001 to 0004.
 */
export async function parseFilter(raw: unknown, list: FilterList, lookups: FilterLookups): Promise<ParsedFilter> {
  const input = readFilterInput(raw);
  const root: FilterGroupInput = "logic" in input ? input : { logic: "and", filters: [input] };
  return parseGroup(root, list, lookups);
}

async function parseGroup(group: FilterGroupInput, list: FilterList, lookups: FilterLookups): Promise<ParsedFilter> {
  const nodes: FilterNode[] = [];
  const echoes: FilterInput[] = [];
  for (const child of group.filters) {
    const parsed = "logic" in child ? await parseGroup(child, list, lookups) : await parseCondition(child, list, lookups);
    nodes.push(parsed.filter);
    echoes.push("logic" in child ? parsed.echo : parsed.echo.filters[0]!);
  }
  return { filter: { kind: "group", logic: group.logic, nodes }, echo: { logic: group.logic, filters: echoes } };
}

function valuesOf(condition: FilterConditionInput, name: string): unknown[] {
  const { operator, value } = condition;
  if (operator === "isempty" || operator === "isnotempty") {
    if (value !== undefined && value !== null && value !== "") throw badValue(name, `"${operator}" takes no value`);
    return [];
  }
  if (operator === "in") {
    if (!Array.isArray(value) || value.length === 0) throw badValue(name, '"in" takes a list of at least one value');
    if (value.length > FILTER_LIMITS.values) throw badValue(name, `"in" takes at most ${FILTER_LIMITS.values} values`);
    return value;
  }
  if (value === undefined || value === null || Array.isArray(value) || typeof value === "object") {
    throw badValue(name, `"${operator}" takes one value, not ${value === undefined ? "none" : describe(value)}`);
  }
  return [value];
}

async function parseCondition(condition: FilterConditionInput, list: FilterList, lookups: FilterLookups): Promise<ParsedFilter> {
  const echo = (values: readonly unknown[]): FilterGroupInput => ({
    logic: "and",
    filters: [{ field: condition.field, operator: condition.operator, ...(values.length === 0 ? {} : { value: condition.operator === "in" ? values : values[0] }) }],
  });
  if ((FILTER_PROPERTIES as readonly string[]).includes(condition.field)) {
    const parsed = await propertyCondition(condition, condition.field as FilterProperty, lookups);
    return { filter: parsed.filter, echo: echo(parsed.shown) };
  }
  const variants = fieldVariants(condition.field, list);
  if (variants.length === 0) throw new LineageError("FILTER0002", [condition.field]);
  const raw = valuesOf(condition, condition.field);
  const conditions: FieldCondition[] = [];
  let shown: unknown[] = [];
  for (const variant of variants) {
    if (!OPERATORS_OF[variant.field.type].includes(condition.operator)) {
      throw new LineageError("FILTER0003", [condition.operator, condition.field, variant.field.type]);
    }
    const typed = await typeFieldValues(variant.field, condition.operator, raw, lookups);
    shown = typed.shown;
    conditions.push({
      kind: "field",
      field: condition.field,
      comparison: comparisonOf(variant.field.type),
      shape: shapeOf(variant.field),
      operator: condition.operator,
      values: typed.values,
      ...(variant.structures ? { structures: variant.structures } : {}),
      indexed: INDEXED_ORDER_FIELD_TYPES.has(variant.field.type) && shapeOf(variant.field) === "single",
    });
  }
  const filter: FilterNode = conditions.length === 1 ? conditions[0]! : { kind: "group", logic: "or", nodes: conditions };
  return { filter, echo: echo(shown) };
}

/**
 * The field as each structure of the list has it, grouped by how it is typed: one variant when
 * every structure that has it types it alike (`structures` undefined when every structure of the
 * list has it), several when structures type it differently.
 */
function fieldVariants(id: string, list: FilterList): { field: ResolvedField; structures?: readonly string[] }[] {
  const variants = new Map<string, { field: ResolvedField; structures: string[] }>();
  for (const structure of list.structures) {
    const field = findField(structure, id);
    if (!field || visibilityOf(field) === "I") continue;
    const key = `${field.type}\u0000${shapeOf(field)}\u0000${field.enum ?? ""}`;
    const variant = variants.get(key) ?? { field, structures: [] };
    variant.structures.push(structure.name);
    variants.set(key, variant);
  }
  const all = [...variants.values()];
  if (all.length === 1 && all[0]!.structures.length === list.structures.length) return [{ field: all[0]!.field }];
  return all;
}

function shapeOf(field: ResolvedField): FilterShape {
  if (isColumn(field)) return field.multiple ? "nested" : "list";
  return field.multiple ? "list" : "single";
}

function comparisonOf(type: FieldType): FilterComparison {
  if (type === "htmltext") return "html";
  return type === "int" || type === "double" || type === "money" || type === "docid" ? "number" : "text";
}

function textOf(name: string, raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  throw badValue(name, `a text is expected, not ${describe(raw)}`);
}

/** Types a field condition's values as stored: `shown` as echoed, `values` as compared. */
async function typeFieldValues(
  field: ResolvedField, operator: FilterOperator, raw: readonly unknown[], lookups: FilterLookups,
): Promise<{ values: FilterValue[]; shown: unknown[] }> {
  const values: FilterValue[] = [];
  const shown: unknown[] = [];
  for (const item of raw) {
    const [value, echoed] = await typeFieldValue(field, operator, item, lookups);
    values.push(value);
    shown.push(echoed);
  }
  return { values, shown };
}

async function typeFieldValue(field: ResolvedField, operator: FilterOperator, raw: unknown, lookups: FilterLookups): Promise<[FilterValue, unknown]> {
  const name = field.id;
  switch (field.type) {
    case "text": case "longtext": case "htmltext": {
      const text = textOf(name, raw);
      return [TEXT_OPERATORS.has(operator) ? foldCase(text) : text, text];
    }
    case "enum": {
      const key = textOf(name, raw);
      const enumerate = field.enum ? lookups.enumerate(field.enum) : undefined;
      if (!enumerate || !findEnumItem(enumerate, key)) throw badValue(name, `"${describe(key)}" is not a key of enumerate "${field.enum ?? ""}"`);
      return [key, key];
    }
    case "account": {
      const login = textOf(name, raw);
      const value = login === "@me" ? lookups.principal.account.login : login;
      return [value, value];
    }
    case "docid": {
      if (typeof raw === "number" && Number.isSafeInteger(raw) && raw > 0) return [raw, raw];
      const ref = textOf(name, raw).trim();
      if (/^\d+$/.test(ref)) return [Number(ref), Number(ref)];
      // A name no element has matches nothing: saying it does not exist would tell of elements the caller may not see.
      return [(await lookups.initidOf(ref)) ?? 0, ref];
    }
    default: {
      // int, double, money, date, timestamp, time, color: the codec's checks and stored forms.
      try {
        const value = encodeFieldValue({ id: field.id, type: field.type }, typeof raw === "number" && isTemporal(field.type) ? String(raw) : raw, NO_LOOKUPS);
        if (typeof value !== "string" && typeof value !== "number") throw badValue(name, `a value is expected, not ${describe(raw)}`);
        return [value, value];
      } catch (error) {
        if (error instanceof LineageError && error.code === "VALUE0001") throw badValue(name, codecReason(error));
        throw error;
      }
    }
  }
}

/** Why the value codec refused a value (its VALUE0001 carries the reason apart from the field). */
const codecReason = (error: LineageError) => (error.data as { err?: string } | undefined)?.err ?? error.message;

const isTemporal = (type: FieldType) => type === "date" || type === "timestamp" || type === "time";

async function propertyCondition(
  condition: FilterConditionInput, property: FilterProperty, lookups: FilterLookups,
): Promise<{ filter: PropertyCondition; shown: unknown[] }> {
  const { type, operators } = PROPERTY_TYPES[property];
  if (!operators.includes(condition.operator)) throw new LineageError("FILTER0003", [condition.operator, property, "property"]);
  const raw = valuesOf(condition, property);
  const values: FilterValue[] = [];
  const shown: unknown[] = [];
  for (const item of raw) {
    switch (type) {
      case "text": case "key": {
        const text = textOf(property, item);
        values.push(TEXT_OPERATORS.has(condition.operator) ? foldCase(text) : text);
        shown.push(text);
        break;
      }
      case "int": {
        const n = typeof item === "number" ? item : typeof item === "string" && /^\s*[-+]?\d+\s*$/.test(item) ? Number(item) : NaN;
        if (!Number.isSafeInteger(n)) throw badValue(property, `"${describe(item)}" is not an integer`);
        values.push(n);
        shown.push(n);
        break;
      }
      case "instant": {
        const instant = toInstant(property, item);
        values.push(instant);
        shown.push(instant);
        break;
      }
      case "account": {
        const login = textOf(property, item);
        const resolved = login === "@me" ? lookups.principal.account.login : login;
        // An unknown login owns nothing: the condition holds for no element (and tells nothing of accounts).
        values.push(resolved === lookups.principal.account.login ? lookups.principal.account.id : (await lookups.accountId(resolved)) ?? 0);
        shown.push(resolved);
        break;
      }
    }
  }
  return { filter: { kind: "property", property, comparison: type === "int" || type === "account" ? "number" : "text", operator: condition.operator, values }, shown };
}

/** cdate and mdate are kept as ISO instants (`2024-01-01T09:30:00.000Z`): a date or a timestamp given compares as one. */
function toInstant(property: string, raw: unknown): string {
  try {
    const timestamp = encodeFieldValue({ id: property, type: "timestamp" }, raw, NO_LOOKUPS);
    if (typeof timestamp !== "string") throw badValue(property, `a date or a timestamp is expected, not ${describe(raw)}`);
    return `${timestamp}.000Z`;
  } catch (error) {
    if (error instanceof LineageError && error.code === "VALUE0001") throw badValue(property, codecReason(error));
    throw error;
  }
}
