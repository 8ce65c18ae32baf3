import MiniSearch, { type Query } from "minisearch";
import type { QueryLiteral, SearchQuery } from "@lineage/core";

/** Every node sets combineWith: MiniSearch passes a node's options down to its children. */
function literalQuery(literal: QueryLiteral): Query | undefined {
  switch (literal.kind) {
    case "term": return { queries: [literal.term], combineWith: "OR", prefix: false };
    case "prefix": return { queries: [literal.prefix], combineWith: "OR", prefix: true };
    case "phrase": {
      const terms = literal.terms.filter((t): t is string => t !== null);
      // The index has no positions: a phrase is all its terms; a negated one excludes nothing here.
      return literal.negated ? undefined : { queries: terms, combineWith: "AND", prefix: false };
    }
  }
}

function groupQuery(group: readonly QueryLiteral[]): Query {
  const positive = group.filter((l) => !l.negated).map(literalQuery).filter((q): q is Query => q !== undefined);
  const negative = group.filter((l) => l.negated).map(literalQuery).filter((q): q is Query => q !== undefined);
  const base: Query = positive.length === 0 ? MiniSearch.wildcard : { queries: positive, combineWith: "AND" };
  return negative.length === 0 ? base : { queries: [base, ...negative], combineWith: "AND_NOT" };
}

/** A parsed query as a MiniSearch query tree: OR of groups, each AND of its terms AND_NOT its negations. */
export function toMiniSearchQuery(query: SearchQuery): Query {
  return { queries: query.groups.map(groupQuery), combineWith: "OR" };
}
