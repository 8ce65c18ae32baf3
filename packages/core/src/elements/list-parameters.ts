import { LineageError } from "../errors/lineage-error.ts";
import { SORTABLE_PROPERTIES, type OrderTerm } from "../ports/element-repository.port.ts";
import { visibilityOf } from "../structure/smart-field.ts";
import { findField, type SmartStructure } from "../structure/smart-structure.ts";

/** Raw query parameters of a list, as strings. */
export interface ListQuery {
  readonly slice?: string | undefined;
  readonly offset?: string | undefined;
  readonly orderBy?: string | undefined;
}

/** Parsed paging and order of a list. */
export interface ListParameters {
  /** A count, or "ALL" (echoed in upper case as the original does). */
  readonly slice: number | "ALL";
  readonly offset: number;
  readonly orderBy: readonly OrderTerm[];
}

/** The largest page a client can ask for by number; `all` is the way to ask for more. */
export const MAX_SLICE = 100_000;

/** Parses `slice`: a non-negative integer or `all`; empty or 0 keep the default. */
export function parseSlice(raw: string | undefined, defaultSlice: number): number | "ALL" {
  const value = raw?.trim();
  if (!value || /^0+$/.test(value)) return defaultSlice;
  if (value.toLowerCase() === "all") return "ALL";
  if (!/^\d{1,9}$/.test(value) || Number(value) > MAX_SLICE) throw new LineageError("ROUTES0139", [raw]);
  return Number(value);
}

/** Parses `offset`: a non-negative integer, 0 by default. */
export function parseOffset(raw: string | undefined): number {
  const value = raw?.trim();
  if (!value) return 0;
  if (!/^\d{1,12}$/.test(value) || !Number.isSafeInteger(Number(value))) throw new LineageError("ROUTES0140", [raw]);
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
    if (field && field.type !== "array" && visibilityOf(field) !== "I") return { kind: "field", key: rawKey, direction };
    throw new LineageError("CRUD0506", [rawKey]);
  });
  if (!terms.some((term) => term.kind === "property" && term.key === "id")) terms.push({ kind: "property", key: "id", direction: "desc" });
  return terms;
}

/** The echo of an order in `requestParameters.orderBy`: `title asc, id desc`. */
export function formatOrderBy(terms: readonly OrderTerm[]): string {
  return terms.map((term) => `${term.key} ${term.direction}`).join(", ");
}

/** Parses the three list parameters. */
export function parseListParameters(query: ListQuery, defaultOrder: string, structure?: SmartStructure): ListParameters {
  return {
    slice: parseSlice(query.slice, 10),
    offset: parseOffset(query.offset),
    orderBy: parseOrderBy(query.orderBy, defaultOrder, structure),
  };
}
