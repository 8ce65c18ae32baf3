import type { ElementRevision, FieldValue } from "./smart-element.ts";
import type { OrderTerm } from "../ports/element-repository.port.ts";
import { compareCodePoints } from "../values/code-point-order.ts";

/*
 * The order of a list as the stores give it (ElementRepository.list): NULL, then numbers, then text by
 * code point; multiple values by their JSON text. The in-memory store sorts with it, and a list that
 * merges two of a store's pages (alive and in the trash) merges with it.
 */

/** Terms closed by `id desc` unless they sort on id already, so every order is total. */
function withTieBreak(terms: readonly OrderTerm[]): readonly OrderTerm[] {
  if (terms.some((t) => t.kind === "property" && t.key === "id")) return terms;
  return [...terms, { kind: "property", key: "id", direction: "desc" }];
}

type SqlValue = string | number | null;

function sortValue(term: OrderTerm, structureId: (name: string) => number | null): (r: ElementRevision) => SqlValue {
  if (term.kind === "field") return (r) => fieldSortValue(r.values[term.key]);
  switch (term.key) {
    case "id": return (r) => r.id;
    case "initid": return (r) => r.initid;
    case "title": return (r) => r.title;
    case "name": return (r) => r.name;
    case "revision": return (r) => r.revision;
    case "owner": return (r) => r.owner;
    case "state": return (r) => r.state;
    case "fromname": return (r) => r.structure;
    case "fromid": return (r) => structureId(r.structure);
    case "cdate": return (r) => r.createdAt;
    case "mdate": return (r) => r.modifiedAt;
    case "status": return (r) => r.status;
    default: throw new Error(`Unknown sort property "${term.key}"`);
  }
}

/** A field's value as the API sorts it: multiple values by their JSON text. */
function fieldSortValue(value: FieldValue | undefined): SqlValue {
  if (value === undefined || value === null) return null;
  return typeof value === "object" ? JSON.stringify(value) : value;
}

/** The API's order of values: NULL, then numbers, then text by code point. */
export function compareSql(a: SqlValue, b: SqlValue): number {
  const rank = (v: SqlValue) => (v === null ? 0 : typeof v === "number" ? 1 : 2);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0 || a === null || b === null) return byRank;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareCodePoints(String(a), String(b));
}

/** Compares two revisions by a list's order, closed by `id desc` as the stores close it. */
export function revisionOrder(terms: readonly OrderTerm[], structureId: (name: string) => number | null): (a: ElementRevision, b: ElementRevision) => number {
  const keys = withTieBreak(terms).map((term) => ({ term, value: sortValue(term, structureId) }));
  return (a, b) => {
    for (const { term, value } of keys) {
      const order = compareSql(value(a), value(b));
      if (order !== 0) return term.direction === "asc" ? order : -order;
    }
    return 0;
  };
}
