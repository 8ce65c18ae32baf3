import type { Database } from "better-sqlite3";
import type { ElementRepository } from "@lineage/core";

/**
 * Below this many new rows an import updates the list indexes row by row: rebuilding them reads the
 * whole table once per index.
 */
export const BULK_MIN_ROWS = 20_000;

/**
 * SQLite's page cache while a bulk write runs, in KiB (a negative cache_size): the default 2 MB
 * spills the B-tree pages inserts touch into the WAL again and again (importing a million elements,
 * the process had written over 20 GB when its WAL held 2.6 GB); 192 MB keeps the pages of the indexes that stay
 * (unique names, history, events) in memory, under the import's memory budget of 1 GB.
 */
const BULK_CACHE_KIB = 196_608;

/**
 * The element repository with `bulkWrite` (a bundle import): when the rows it may insert are at
 * least BULK_MIN_ROWS and half the table, the list indexes (the partial indexes over live
 * revisions, list-indexes.ts and field-indexes.ts) are dropped at its first insert and made again
 * from their own SQL once it is done, in the same transaction. Each list index is a B-tree whose
 * keys (titles, field values) arrive in random order: updated row by row they spill SQLite's page
 * cache into the WAL on every insert (a million rows: more than 8 minutes and gigabytes of WAL),
 * while CREATE INDEX sorts once. A rollback brings the indexes back with everything else; a
 * re-import that inserts nothing drops nothing. The page cache grows for the write (BULK_CACHE_KIB).
 */
export function withBulkWrite(elements: ElementRepository, client: Database): ElementRepository {
  const count = client.prepare("select count(*) from elements").pluck();
  const listIndexes = client.prepare(
    "select name, sql from sqlite_master where type = 'index' and tbl_name = 'elements' and lower(sql) like '% where fixed = 0%' and lower(sql) not like 'create unique%'",
  );
  let bulk: { rows: number; dropped: { name: string; sql: string }[] | undefined } | undefined;
  return {
    ...elements,
    async insert(revision) {
      if (bulk && !bulk.dropped) {
        bulk.dropped = bulk.rows >= BULK_MIN_ROWS && bulk.rows >= (count.get() as number) / 2
          ? (listIndexes.all() as { name: string; sql: string }[])
          : [];
        for (const { name } of bulk.dropped) client.exec(`drop index "${name.replaceAll('"', '""')}"`);
      }
      return elements.insert(revision);
    },
    async bulkWrite(rows, write) {
      if (bulk || !client.inTransaction) return write();
      bulk = { rows, dropped: undefined };
      const cacheSize = client.pragma("cache_size", { simple: true }) as number;
      if (rows >= BULK_MIN_ROWS) client.pragma(`cache_size = ${-BULK_CACHE_KIB}`);
      try {
        const result = await write();
        for (const { sql } of bulk.dropped ?? []) client.exec(sql);
        return result;
      } finally {
        bulk = undefined;
        client.pragma(`cache_size = ${cacheSize}`);
      }
    },
  };
}
