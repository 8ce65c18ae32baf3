import { fileStatusCounts, type IndexCoverage, type IndexedFile, type SearchIndex } from "@lineage/core";
import { snapshotFiles, type SnapshotHead } from "../snapshot-files.ts";
import { compactDomain, MERGE_AT, RANGED_AT, type CompactDomain } from "./compact-domain.ts";
import { decodeSnapshot, encodeSnapshot, readSnapshotHeader, SNAPSHOT_FORMAT } from "./snapshot-codec.ts";

export interface CompactSearchIndexOptions {
  /** Where snapshots are kept (one file per domain and generation); created when missing. */
  readonly dir: string;
  /** Told why a snapshot cannot be used; console by default. */
  readonly log?: (message: string) => void;
  /**
   * Postings of new documents kept in growable arrays before they are merged
   * into the typed arrays (at least a quarter of those): fewer merges against
   * more memory while indexing. 250 000 by default.
   */
  readonly mergeAt?: number;
  /** Holders every literal of a one-group query needs for it to be scored range by range (tests lower it). */
  readonly rangedAt?: number;
}

interface DomainState {
  coverage: IndexCoverage;
  readonly index: CompactDomain;
  readonly files: Map<number, readonly IndexedFile[]>;
  bytes: number;
}

/**
 * A SearchIndex of our own, in process, sized for 100 000s of elements:
 * postings in typed arrays (slots and packed per-weight frequencies), BM25+
 * relevance with the weights' boosts, hits ordered lazily best first, and a
 * binary snapshot `<dir>/<domain>.<generation>.lnsx` that loads by copying
 * arrays instead of rebuilding.
 * @example
 * const platform = createPlatform({ store, searchIndex: createCompactSearchIndex({ dir: "./data/search" }) });
 */
export function createCompactSearchIndex(options: CompactSearchIndexOptions): SearchIndex {
  const files = snapshotFiles(options.dir, "lnsx", options.log);
  const domains = new Map<string, DomainState>();
  const mergeAt = options.mergeAt ?? MERGE_AT;
  const rangedAt = options.rangedAt ?? RANGED_AT;

  const get = (domain: string): DomainState => {
    const found = domains.get(domain);
    if (!found) throw new Error(`Search domain "${domain}" is not open`);
    return found;
  };

  return {
    async open(domain, expected) {
      const state = await files.read(domain, expected, SNAPSHOT_FORMAT, (bytes): SnapshotHead<DomainState> => {
        const header = readSnapshotHeader(bytes);
        return {
          format: header.format,
          fingerprint: header.coverage.fingerprint,
          load() {
            const content = decodeSnapshot(bytes, header);
            return { coverage: content.coverage, index: compactDomain(content, mergeAt, rangedAt), files: new Map(content.files), bytes: bytes.length };
          },
        };
      });
      if (!state) return undefined;
      domains.set(domain, state);
      return state.coverage;
    },
    reset(domain, coverage) {
      domains.set(domain, { coverage, index: compactDomain(undefined, mergeAt, rangedAt), files: new Map(), bytes: 0 });
    },
    upsert(domain, documents) {
      const state = get(domain);
      state.index.add(documents);
      for (const document of documents) {
        if (document.files && document.files.length > 0) state.files.set(document.id, document.files);
        else state.files.delete(document.id);
      }
    },
    remove(domain, ids) {
      const state = get(domain);
      state.index.remove(ids);
      for (const id of ids) state.files.delete(id);
    },
    has: (domain, id) => get(domain).index.slots.slotOf(id) !== undefined,
    ids(domain) {
      const { slots } = get(domain).index;
      const ids: number[] = [];
      for (let s = 0; s < slots.count; s++) if (slots.alive[s]) ids.push(slots.ids[s]!);
      return ids.sort((a, b) => a - b);
    },
    advance(domain, seq) {
      const state = get(domain);
      state.coverage = { ...state.coverage, seq };
    },
    coverage: (domain) => domains.get(domain)?.coverage,
    search(domain, query, searchOptions = {}) {
      return get(domain).index.search(query, searchOptions.structures);
    },
    stats(domain) {
      const state = get(domain);
      const { slots } = state.index;
      const counts = new Array<number>(slots.structureNames.length).fill(0);
      for (let s = 0; s < slots.count; s++) if (slots.alive[s]) counts[slots.structures[s]!]!++;
      const documents: Record<string, number> = {};
      slots.structureNames.forEach((name, i) => {
        if (counts[i]! > 0) documents[name] = counts[i]!;
      });
      return { documents, files: fileStatusCounts(state.files.values()), bytes: state.bytes };
    },
    async persist(domain) {
      const state = get(domain);
      const { generation } = state.coverage;
      // Captured now; only the writing waits.
      const parts = encodeSnapshot({ coverage: state.coverage, files: [...state.files], ...state.index.settle() });
      state.bytes = await files.write(domain, generation, parts);
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
