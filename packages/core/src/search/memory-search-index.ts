import type { IndexCoverage, IndexedDocument, IndexStats, SearchHit, SearchIndex } from "../ports/search-index.port.ts";
import { fileStatusCounts } from "./file-status-counts.ts";
import { SEARCH_WEIGHTS, WEIGHT_BOOSTS } from "./search-domain.ts";
import type { QueryLiteral, SearchQuery } from "./search-query.ts";

export interface MemorySearchIndexOptions {
  /** Where `persist` keeps snapshots; share it between two indexes to play a restart. */
  readonly disk?: Map<string, string>;
}

interface DomainIndex {
  coverage: IndexCoverage;
  readonly documents: Map<number, IndexedDocument>;
  /** Term to the ids of documents holding it. */
  readonly postings: Map<string, Set<number>>;
}

/**
 * A SearchIndex in memory: exact, simple scoring (term frequency times
 * weight boost times idf), snapshots kept in a Map. The fake of the port for
 * tests without I/O, and the platform's index when none is given.
 * @example
 * const platform = createPlatform({ store, searchIndex: createMemorySearchIndex() });
 */
export function createMemorySearchIndex(options: MemorySearchIndexOptions = {}): SearchIndex {
  const disk = options.disk ?? new Map<string, string>();
  const domains = new Map<string, DomainIndex>();

  const empty = (coverage: IndexCoverage): DomainIndex => ({ coverage, documents: new Map(), postings: new Map() });
  const get = (domain: string): DomainIndex => {
    const found = domains.get(domain);
    if (!found) throw new Error(`Search domain "${domain}" is not open`);
    return found;
  };
  const termsOf = (document: IndexedDocument) => new Set(SEARCH_WEIGHTS.flatMap((w) => document.terms[w] ?? []));

  function add(index: DomainIndex, document: IndexedDocument): void {
    remove(index, document.id);
    index.documents.set(document.id, document);
    for (const term of termsOf(document)) {
      let ids = index.postings.get(term);
      if (!ids) index.postings.set(term, (ids = new Set()));
      ids.add(document.id);
    }
  }
  function remove(index: DomainIndex, id: number): void {
    const previous = index.documents.get(id);
    if (!previous) return;
    index.documents.delete(id);
    for (const term of termsOf(previous)) {
      const ids = index.postings.get(term);
      ids?.delete(id);
      if (ids?.size === 0) index.postings.delete(term);
    }
  }

  function idsOf(index: DomainIndex, literal: QueryLiteral): Set<number> {
    switch (literal.kind) {
      case "term": return index.postings.get(literal.term) ?? new Set();
      case "prefix": {
        const ids = new Set<number>();
        for (const [term, holders] of index.postings) if (term.startsWith(literal.prefix)) for (const id of holders) ids.add(id);
        return ids;
      }
      case "phrase": {
        if (literal.negated) return new Set();
        const sets = literal.terms.filter((t): t is string => t !== null).map((t) => index.postings.get(t) ?? new Set<number>());
        return intersect(sets);
      }
    }
  }

  function score(index: DomainIndex, document: IndexedDocument, query: SearchQuery): number {
    let total = 0;
    const n = index.documents.size;
    for (const group of query.groups) {
      for (const literal of group) {
        if (literal.negated) continue;
        const wanted = literal.kind === "phrase" ? literal.terms.filter((t): t is string => t !== null) : literal.kind === "term" ? [literal.term] : [];
        for (const weight of SEARCH_WEIGHTS) {
          for (const term of document.terms[weight] ?? []) {
            const hit = literal.kind === "prefix" ? term.startsWith(literal.prefix) : wanted.includes(term);
            if (hit) total += WEIGHT_BOOSTS[weight] * Math.log(1 + n / (index.postings.get(term)?.size ?? 1));
          }
        }
      }
    }
    return total;
  }

  return {
    async open(domain, expected) {
      const text = disk.get(domain);
      if (text === undefined) return undefined;
      let snapshot: { coverage: IndexCoverage; documents: IndexedDocument[] };
      try {
        snapshot = JSON.parse(text) as typeof snapshot;
      } catch {
        return undefined;
      }
      if (snapshot.coverage?.fingerprint !== expected.fingerprint || snapshot.coverage.generation !== expected.generation) return undefined;
      const index = empty(snapshot.coverage);
      for (const document of snapshot.documents) add(index, document);
      domains.set(domain, index);
      return index.coverage;
    },
    reset(domain, coverage) {
      domains.set(domain, empty(coverage));
    },
    upsert(domain, documents) {
      const index = get(domain);
      for (const document of documents) add(index, structuredClone(document));
    },
    remove(domain, ids) {
      const index = get(domain);
      for (const id of ids) remove(index, id);
    },
    has: (domain, id) => get(domain).documents.has(id),
    ids: (domain) => [...get(domain).documents.keys()].sort((a, b) => a - b),
    advance(domain, seq) {
      const index = get(domain);
      index.coverage = { ...index.coverage, seq };
    },
    coverage: (domain) => domains.get(domain)?.coverage,
    search(domain, query, options = {}) {
      const index = get(domain);
      const allowed = options.structures && new Set(options.structures);
      const found = new Set<number>();
      for (const group of query.groups) {
        const positive = group.filter((l) => !l.negated).map((l) => idsOf(index, l));
        let ids = positive.length === 0 ? new Set(index.documents.keys()) : intersect(positive);
        for (const literal of group.filter((l) => l.negated)) {
          const excluded = idsOf(index, literal);
          ids = new Set([...ids].filter((id) => !excluded.has(id)));
        }
        for (const id of ids) found.add(id);
      }
      const hits: SearchHit[] = [];
      for (const id of found) {
        const document = index.documents.get(id)!;
        if (allowed && !allowed.has(document.structure)) continue;
        hits.push({ id, score: score(index, document, query) });
      }
      return hits.sort((a, b) => b.score - a.score || a.id - b.id);
    },
    stats(domain) {
      const index = get(domain);
      const documents: Record<string, number> = {};
      for (const document of index.documents.values()) documents[document.structure] = (documents[document.structure] ?? 0) + 1;
      const files = fileStatusCounts([...index.documents.values()].map((document) => document.files));
      return { documents, files, bytes: disk.get(domain)?.length ?? 0 } satisfies IndexStats;
    },
    persist(domain) {
      const index = get(domain);
      disk.set(domain, JSON.stringify({ coverage: index.coverage, documents: [...index.documents.values()] }));
    },
    drop(domain) {
      domains.delete(domain);
      disk.delete(domain);
    },
    replace(domain, from) {
      domains.set(domain, get(from));
      domains.delete(from);
    },
  };
}

function intersect(sets: readonly Set<number>[]): Set<number> {
  if (sets.length === 0) return new Set();
  const [smallest, ...rest] = [...sets].sort((a, b) => a.size - b.size);
  return new Set([...smallest!].filter((id) => rest.every((s) => s.has(id))));
}
