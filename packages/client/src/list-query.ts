import type { Query } from "./transport.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";

/** The properties a filter may name besides the structure's fields (docs/api.md, Filters). */
export type FilterProperty = "title" | "name" | "initid" | "state" | "owner" | "cdate" | "mdate" | "revision" | "fromname";

export type FilterOperator =
  | "eq" | "neq" | "lt" | "lte" | "gt" | "gte" | "in" | "startswith" | "contains" | "doesnotcontain" | "isempty" | "isnotempty";

type Item<V> = V extends readonly (infer Inner)[] ? Item<Inner> : Exclude<V, null>;
type FieldOf<S extends StructureType> = keyof S["values"] & string;
/** What a condition on a field compares with: one value of its type (a list of them for `in`). */
type ConditionOn<S extends StructureType, F extends string> = F extends FieldOf<S>
  ? | { readonly field: F; readonly operator: "isempty" | "isnotempty" }
    | { readonly field: F; readonly operator: "in"; readonly value: readonly Item<S["values"][F]>[] }
    | { readonly field: F; readonly operator: Exclude<FilterOperator, "in" | "isempty" | "isnotempty">; readonly value: Item<S["values"][F]> }
  : never;
type PropertyCondition =
  | { readonly field: FilterProperty; readonly operator: "isempty" | "isnotempty" }
  | { readonly field: FilterProperty; readonly operator: Exclude<FilterOperator, "isempty" | "isnotempty">; readonly value: unknown };

/** One condition of a filter: a field of the structure (its values' type checked) or a property. */
export type FilterCondition<S extends StructureType = AnyStructure> = ConditionOn<S, FieldOf<S>> | PropertyCondition;

/** A list filter (docs/api.md, Filters): a condition, or a group of conditions and groups. */
export type Filter<S extends StructureType = AnyStructure> =
  | FilterCondition<S>
  | { readonly logic: "and" | "or"; readonly filters: readonly Filter<S>[] };

/** A list's page and order: `slice` (how many, or "all"), `offset`, `orderBy` (`"mdate:desc"`, or several). */
export interface PageOptions {
  readonly slice?: number | "all";
  readonly offset?: number;
  readonly orderBy?: string | readonly string[];
}

/** What a list of elements takes: its page, the fields each item carries, a filter, and `count` for the total. */
export interface ListOptions<S extends StructureType = AnyStructure> extends PageOptions {
  /** The fields each item carries besides its properties (`document.attributes.<id>`). */
  readonly fields?: readonly (FieldOf<S> | (string & {}))[];
  /** Every property instead of the default few (`document.properties.all`). */
  readonly allProperties?: boolean;
  readonly filter?: Filter<S>;
  /** Adds `total`: how many elements match for the caller. */
  readonly count?: boolean;
  readonly signal?: AbortSignal;
}

/** A page of a list, as the API's `requestParameters` describe it. */
export interface Page<T> {
  readonly items: T[];
  readonly slice: number | "ALL";
  readonly offset: number;
  /** How many items this page holds. */
  readonly length: number;
  readonly orderBy: string;
  /** With `count`: how many match in all. */
  readonly total?: number;
  /** The filter as the server applied it. */
  readonly filter?: unknown;
  readonly uri: string;
}

/** The request parameters of an answered list. */
export interface RequestParameters {
  readonly slice: number | "ALL";
  readonly offset: number;
  readonly length: number;
  readonly orderBy: string;
  readonly total?: number;
  readonly filter?: unknown;
}

/** The query variables of a list's options. */
export function listQuery<S extends StructureType>(options: ListOptions<S> = {}): Query {
  return {
    ...pageQuery(options),
    fields: fieldsQuery(options.fields, options.allProperties),
    filter: options.filter === undefined ? undefined : JSON.stringify(options.filter),
    count: options.count ? 1 : undefined,
  };
}

/** The query variables of a page. */
export function pageQuery(options: PageOptions): Query {
  return {
    slice: options.slice,
    offset: options.offset,
    orderBy: typeof options.orderBy === "string" ? options.orderBy : options.orderBy?.join(","),
  };
}

/** `fields` for reading elements: their properties and the values of these fields (all when undefined). */
export function fieldsQuery(fields: readonly string[] | undefined, allProperties = false): string | undefined {
  if (fields === undefined && !allProperties) return undefined;
  const parts = [allProperties ? "document.properties.all" : "document.properties"];
  for (const field of fields ?? []) parts.push(`document.attributes.${field}`);
  return parts.join(",");
}

/** A page of the client's items from a list's answer. */
export function pageOf<T>(answer: { requestParameters: RequestParameters; uri: string }, items: T[]): Page<T> {
  const { requestParameters: parameters } = answer;
  return {
    items,
    slice: parameters.slice,
    offset: parameters.offset,
    length: parameters.length,
    orderBy: parameters.orderBy,
    ...(parameters.total === undefined ? {} : { total: parameters.total }),
    ...(parameters.filter === undefined ? {} : { filter: parameters.filter }),
    uri: answer.uri,
  };
}
