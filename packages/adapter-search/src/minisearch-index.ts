import MiniSearch, { type Options } from "minisearch";
import {
  SEARCH_WEIGHTS, WEIGHT_BOOSTS, type SearchWeight,
  fileStatusCounts, type IndexCoverage, type IndexedDocument, type IndexedFile, type SearchHit, type SearchIndex,
} from "@lineage/core";
import { toMiniSearchQuery } from "./minisearch-query.ts";
import { snapshotFiles, type SnapshotHead } from "./snapshot-files.ts";

export interface MiniSearchIndexOptions {
  /** Where snapshots are kept (one file per domain and generation); created when missing. */
  readonly dir: string;
  /** Told why a snapshot cannot be used; console by default. */
  readonly log?: (message: string) => void;
}

/** The snapshot layout; a file of another format is rebuilt. */
const FORMAT = 1;

type Row = { id: number } & Partial<Record<SearchWeight, string>>;

interface DomainIndex {
  coverage: IndexCoverage;
  mini: MiniSearch<Row>;
  readonly structures: Map<number, string>;
  readonly files: Map<number, readonly IndexedFile[]>;
  bytes: number;
}

interface Snapshot {
  readonly format: number;
  readonly coverage: IndexCoverage;
  readonly structures: [number, string][];
  readonly files: [number, readonly IndexedFile[]][];
  readonly index: Parameters<typeof MiniSearch.loadJS>[0];
}

// Terms arrive analysed by core (folded, stemmed) and joined by spaces.
const splitTerms = (text: string) => text.split(" ");
const keepTerm = (term: string) => term || null;

const MINISEARCH_OPTIONS: Options<Row> = {
  fields: [...SEARCH_WEIGHTS],
  idField: "id",
  storeFields: [],
  tokenize: splitTerms,
  processTerm: keepTerm,
  searchOptions: { tokenize: splitTerms, processTerm: keepTerm, boost: { ...WEIGHT_BOOSTS }, fuzzy: false, prefix: false },
};

const toRow = (document: IndexedDocument): Row => {
  const row: Row = { id: document.id };
  for (const weight of SEARCH_WEIGHTS) {
    const terms = document.terms[weight];
    if (terms && terms.length > 0) row[weight] = terms.join(" ");
  }
  return row;
};

/**
 * A SearchIndex over MiniSearch, in process: one MiniSearch per domain,
 * weights A to D as boosted fields, snapshots written atomically as
 * `<dir>/<domain>.<generation>.json` so a restart loads instead of rebuilding.
 * @example
 * const platform = createPlatform({ store, searchIndex: createMiniSearchIndex({ dir: "./data/search" }) });
 */
export function createMiniSearchIndex(options: MiniSearchIndexOptions): SearchIndex {
  const files = snapshotFiles(options.dir, "json", options.log);
  const domains = new Map<string, DomainIndex>();

  const get = (domain: string): DomainIndex => {
    const found = domains.get(domain);
    if (!found) throw new Error(`Search domain "${domain}" is not open`);
    return found;
  };

  function discard(index: DomainIndex, ids: readonly number[]): void {
    for (const id of ids) {
      if (!index.structures.has(id)) continue;
      index.mini.discard(id);
      index.structures.delete(id);
      index.files.delete(id);
    }
  }

  return {
    async open(domain, expected) {
      const index = await files.read(domain, expected, FORMAT, (bytes): SnapshotHead<DomainIndex> => {
        const snapshot = JSON.parse(bytes.toString("utf8")) as Snapshot;
        return {
          format: snapshot.format,
          fingerprint: snapshot.coverage?.fingerprint,
          load: () => ({
            coverage: snapshot.coverage,
            mini: MiniSearch.loadJS<Row>(snapshot.index, MINISEARCH_OPTIONS),
            structures: new Map(snapshot.structures),
            files: new Map(snapshot.files),
            bytes: bytes.length,
          }),
        };
      });
      if (!index) return undefined;
      domains.set(domain, index);
      return index.coverage;
    },
    reset(domain, coverage) {
      domains.set(domain, { coverage, mini: new MiniSearch<Row>(MINISEARCH_OPTIONS), structures: new Map(), files: new Map(), bytes: 0 });
    },
    upsert(domain, given) {
      const index = get(domain);
      // The last of a batch wins: MiniSearch refuses an id twice.
      const documents = [...new Map(given.map((d) => [d.id, d])).values()];
      discard(index, documents.map((d) => d.id));
      index.mini.addAll(documents.map(toRow));
      for (const document of documents) {
        index.structures.set(document.id, document.structure);
        if (document.files && document.files.length > 0) index.files.set(document.id, document.files);
      }
      // MiniSearch keeps discarded ids until it vacuums; it does so on its own past a threshold.
    },
    remove(domain, ids) {
      discard(get(domain), ids);
    },
    has: (domain, id) => get(domain).structures.has(id),
    ids: (domain) => [...get(domain).structures.keys()].sort((a, b) => a - b),
    advance(domain, seq) {
      const index = get(domain);
      index.coverage = { ...index.coverage, seq };
    },
    coverage: (domain) => domains.get(domain)?.coverage,
    search(domain, query, searchOptions = {}) {
      const index = get(domain);
      if (query.groups.length === 0) return [];
      const allowed = searchOptions.structures && new Set(searchOptions.structures);
      const results = index.mini.search(toMiniSearchQuery(query), allowed ? { filter: (r) => allowed.has(index.structures.get(r.id as number) ?? "") } : {});
      const hits: SearchHit[] = results.map((r) => ({ id: r.id as number, score: r.score }));
      return hits.sort((a, b) => b.score - a.score || a.id - b.id);
    },
    stats(domain) {
      const index = get(domain);
      const documents: Record<string, number> = {};
      for (const structure of index.structures.values()) documents[structure] = (documents[structure] ?? 0) + 1;
      return { documents, files: fileStatusCounts(index.files.values()), bytes: index.bytes };
    },
    async persist(domain) {
      const index = get(domain);
      const snapshot: Snapshot = {
        format: FORMAT,
        coverage: index.coverage,
        structures: [...index.structures],
        files: [...index.files],
        index: index.mini.toJSON(),
      };
      const { generation } = index.coverage;
      index.bytes = await files.write(domain, generation, [JSON.stringify(snapshot)]);
      files.removeBefore(domain, generation);
    },
    drop(domain) {
      domains.delete(domain);
      files.removeBefore(domain);
    },
    replace(domain, from) {
      domains.set(domain, get(from));
      domains.delete(from);
    },
  };
}
