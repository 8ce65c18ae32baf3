import * as v from "valibot";
import { LineageError } from "../errors/lineage-error.ts";
import { SORTABLE_PROPERTIES, type OrderTerm } from "../ports/element-repository.port.ts";
import { visibilityOf } from "../structures/smart-field.ts";
import { findField, type SmartStructure } from "../structures/smart-structure.ts";
import { OffsetParameterSchema, SliceParameterSchema } from "./list-query.schema.ts";

/** Raw query parameters of a list, as strings. */
export interface ListQuery {
  readonly slice?: string | undefined;
  readonly offset?: string | undefined;
  readonly orderBy?: string | undefined;
  /** The most elements one answer may hold, `all` included; MAX_SLICE by default. */
  readonly maxSlice?: number | undefined;
}

/** Parsed paging and order of a list. */
export interface ListParameters {
  /** A count, or "ALL" (echoed in upper case as the original does). */
  readonly slice: number | "ALL";
  readonly offset: number;
  readonly orderBy: readonly OrderTerm[];
}

/** The most elements one list answer holds by default, `slice=all` included (docs/limits.md). */
export const MAX_SLICE = 10_000;

/** Parses `slice`: a non-negative integer up to `maxSlice`, or `all`; empty or 0 keep the default. */
export function parseSlice(raw: string | undefined, defaultSlice: number, maxSlice = MAX_SLICE): number | "ALL" {
  const value = raw?.trim();
  if (!value || /^0+$/.test(value)) return Math.min(defaultSlice, maxSlice);
  if (value.toLowerCase() === "all") return "ALL";
  if (!v.is(SliceParameterSchema, value)) throw new LineageError("ROUTES0139", [raw]);
  if (Number(value) > maxSlice) {
    throw new LineageError("ROUTES0139", [raw], { userMessage: `Incorrect Slice "${value}": at most ${maxSlice} elements per page, use offset for more` });
  }
  return Number(value);
}

/** The rows a store should fetch for a slice: one over the cap for `all`, so that going over it can be told. */
export function sliceLimit(slice: number | "ALL", maxSlice = MAX_SLICE): number {
  return slice === "ALL" ? maxSlice + 1 : slice;
}

/** Refuses an `all` page that went over the cap (400 ROUTES0141) rather than cutting it silently. */
export function checkAllSlice<T>(slice: number | "ALL", rows: readonly T[], maxSlice = MAX_SLICE): void {
  if (slice === "ALL" && rows.length > maxSlice) throw new LineageError("ROUTES0141", [maxSlice]);
}

/** Parses `offset`: a non-negative integer, 0 by default. */
export function parseOffset(raw: string | undefined): number {
  const value = raw?.trim();
  if (!value) return 0;
  if (!v.is(OffsetParameterSchema, value)) throw new LineageError("ROUTES0140", [raw]);
  return Number(value);
}

/**
 * Parses `orderBy` (`key[:asc|desc],...`). Keys are properties, or fields of
 * `structure` when the list has one. `id desc` closes the order unless id is in it.
 */
export function parseOrderBy(raw: string | undefined, defaultOrder: string, structure?: SmartStructure): OrderTerm[] {
  const value = raw?.trim() ? raw : defaultOrder;
  const terms: OrderTerm[] = value.split(",").map((item) => {
    const [rawKey = "", rawDirection = "asc", ...extra] = item.split(":").map((part) => part.trim());
    const direction = rawDirection.toLowerCase();
    if (extra.length > 0 || (direction !== "asc" && direction !== "desc")) {
      throw new LineageError("CRUD0501", [extra.length > 0 ? item.trim() : rawDirection]);
    }
    if ((SORTABLE_PROPERTIES as readonly string[]).includes(rawKey)) return { kind: "property", key: rawKey, direction };
    const field = structure ? findField(structure, rawKey) : undefined;
    // A password's hash would order the elements by something nobody may see.
    if (field && field.type !== "array" && field.type !== "password" && visibilityOf(field) !== "I") return { kind: "field", key: rawKey, direction };
    throw new LineageError("CRUD0506", [rawKey]);
  });
  if (!terms.some((term) => term.kind === "property" && term.key === "id")) terms.push({ kind: "property", key: "id", direction: "desc" });
  return terms;
}

/** The echo of an order in `requestParameters.orderBy`: `title asc, id desc`. */
export function formatOrderBy(terms: readonly OrderTerm[]): string {
  return terms.map((term) => `${term.key} ${term.direction}`).join(", ");
}

/** Parses the three list parameters; a page holds `defaultSlice` elements unless `slice` says otherwise. */
export function parseListParameters(query: ListQuery, defaultOrder: string, structure?: SmartStructure, defaultSlice = 10): ListParameters {
  return {
    slice: parseSlice(query.slice, defaultSlice, query.maxSlice),
    offset: parseOffset(query.offset),
    orderBy: parseOrderBy(query.orderBy, defaultOrder, structure),
  };
}
