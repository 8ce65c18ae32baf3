import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElementRepository, NewRevision } from "@lineage/core";
import { BULK_MIN_ROWS, withBulkWrite } from "../src/bulk-write.ts";
import { createElementRepository } from "../src/element-repository.ts";
import { openSqliteStore } from "../src/index.ts";

const dataDir = mkdtempSync(join(tmpdir(), "lineage-sqlite-bulk-"));
let client: Database.Database;
let elements: ElementRepository;

beforeAll(async () => {
  // The store's migrations, and a structure whose text field has indexes of its own.
  const store = openSqliteStore({ dataDir });
  await store.transaction((tx) => tx.catalog.saveStructure({ name: "NOTE", fields: [{ id: "no_title", type: "text" }] }));
  await store.close();
  client = new Database(join(dataDir, "lineage.sqlite"));
  elements = withBulkWrite(createElementRepository(drizzle({ client }), client), client);
});
afterAll(() => {
  client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const indexes = () => client.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'elements' order by name").all() as { name: string; sql: string | null }[];
const listIndexCount = () => indexes().filter((index) => /where fixed = 0/i.test(index.sql ?? "")).length;
const note = (i: number): NewRevision => ({
  revision: 0, structure: "NOTE", name: `N${i}`, title: `Note ${(i * 7919) % 1000}`, owner: 1, status: "alive", fixed: false, state: null,
  values: { no_title: `Note ${i}` }, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null,
});
const count = () => client.prepare("select count(*) from elements").pluck().get() as number;

/** Runs `fn` in a transaction of the test's connection, rolled back when it throws. */
async function inTransaction<T>(fn: () => Promise<T>): Promise<T> {
  client.exec("begin immediate");
  try {
    const result = await fn();
    client.exec("commit");
    return result;
  } catch (error) {
    client.exec("rollback");
    throw error;
  }
}

describe("withBulkWrite", () => {
  it("drops the list indexes at the first insert of a large bulk write, and makes them again, the same, at its end", async () => {
    const before = indexes();
    expect(listIndexCount()).toBeGreaterThan(30);
    let during = -1;
    await inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS, async () => {
      for (let i = 0; i < BULK_MIN_ROWS; i++) {
        await elements.insert(note(i));
        if (i === 0) during = listIndexCount();
      }
    }));
    expect(during).toBe(0);
    expect(indexes()).toEqual(before);
    expect(count()).toBe(BULK_MIN_ROWS);
    // The rebuilt indexes answer: the title order reads the index, not the table.
    const plan = client.prepare("explain query plan select id from elements where status = 'alive' and fixed = 0 order by title, id desc limit 10").all();
    expect(JSON.stringify(plan)).toMatch(/USING (COVERING )?INDEX elements_by_title_idx/);
  });

  it("leaves them in place for a write of fewer rows than BULK_MIN_ROWS or half the table, and for one that inserts nothing", async () => {
    const listed = listIndexCount();
    const during: number[] = [];
    await inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS - 1, async () => {
      await elements.insert(note(BULK_MIN_ROWS));
      during.push(listIndexCount());
    }));
    // Twice as many rows in the table as the write's.
    client.exec(`insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
      select initid, revision, structure, structure_id, name || 'b', title, owner, status, fixed, state, "values", created_at, modified_at, import_key from elements`);
    await inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS, async () => {
      await elements.insert(note(BULK_MIN_ROWS + 1));
      during.push(listIndexCount());
    }));
    await inTransaction(() => elements.bulkWrite!(10 * BULK_MIN_ROWS, async () => {
      during.push(listIndexCount());
    }));
    expect(during).toEqual([listed, listed, listed]);
  });

  it("gives the indexes back when the transaction rolls back", async () => {
    const before = indexes();
    const rows = count();
    await expect(inTransaction(() => elements.bulkWrite!(100 * BULK_MIN_ROWS, async () => {
      await elements.insert(note(-1));
      expect(listIndexCount()).toBe(0);
      throw new Error("refused");
    }))).rejects.toThrow("refused");
    expect(indexes()).toEqual(before);
    expect(count()).toBe(rows);
  });

  it("grows SQLite's page cache for a large bulk write only, and gives the cache size back after, even when it fails", async () => {
    const cacheSize = () => client.pragma("cache_size", { simple: true }) as number;
    const before = cacheSize();
    const during: number[] = [];
    await inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS, async () => {
      during.push(cacheSize());
    }));
    await inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS - 1, async () => {
      during.push(cacheSize());
    }));
    await expect(inTransaction(() => elements.bulkWrite!(BULK_MIN_ROWS, async () => {
      throw new Error("refused");
    }))).rejects.toThrow("refused");
    // Negative: KiB; the large write's cache over 100 MB, the small one's as before.
    expect(during[0]).toBeLessThan(-100_000);
    expect(during[1]).toBe(before);
    expect(cacheSize()).toBe(before);
  });
});
