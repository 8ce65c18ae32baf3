import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { fillPlaceholders } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElementQuery, NewRevision, Store } from "@lineage/core";
import { storeContract } from "@lineage/core/testing";
import { listStatementSql } from "../src/element-repository.ts";
import { openSqliteStore } from "../src/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lineage-sqlite-"));
  dirs.push(dir);
  return dir;
}

/** A second, raw connection to a store's file, to look at what the store cannot show. */
function inspect<T>(dataDir: string, look: (client: Database.Database) => T): T {
  const client = new Database(join(dataDir, "lineage.sqlite"), { readonly: true });
  try {
    return look(client);
  } finally {
    client.close();
  }
}

const revision = (overrides: Partial<NewRevision> = {}): NewRevision => ({
  revision: 0, structure: "article", name: null, title: "Title", owner: 1, status: "alive", fixed: false, state: null,
  values: {}, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z", importKey: null, ...overrides,
});

storeContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));

describe("openSqliteStore", () => {
  it("keeps data across reopening and applies migrations once", () => {
    const dataDir = freshDir();
    let store: Store = openSqliteStore({ dataDir });
    store.elements.insert(revision({ name: "KEPT" }));
    store.catalog.saveStructure({ name: "article", fields: [] });
    const file = store.vault.store(new TextEncoder().encode("kept"), { name: "kept.txt", mime: "text/plain" });
    store.close();
    const migrations = () => inspect(dataDir, (c) => c.prepare("select hash, created_at from __drizzle_migrations").all());
    const applied = migrations();
    expect(applied).toHaveLength(readdirSync(new URL("../drizzle", import.meta.url)).filter((f) => f.endsWith(".sql")).length);

    store = openSqliteStore({ dataDir });
    try {
      expect(migrations()).toEqual(applied);
      expect(store.elements.latestByName("KEPT")?.id).toBe(1);
      expect(store.elements.insert(revision()).id).toBe(2);
      expect(store.catalog.structure("article")?.id).toBe(1);
      expect(store.vault.read(file.id)).toEqual(new TextEncoder().encode("kept"));
    } finally {
      store.close();
    }
  });

  it("runs in WAL mode with the connection settings it asks for", () => {
    const dataDir = freshDir();
    openSqliteStore({ dataDir }).close();
    expect(inspect(dataDir, (c) => c.pragma("journal_mode", { simple: true }))).toBe("wal");
  });

  it("keeps vault content by sha256 under two-letter folders, with no temporary file left", () => {
    const dataDir = freshDir();
    const store = openSqliteStore({ dataDir });
    const file = store.vault.store(new TextEncoder().encode("hello"), { name: "a.txt", mime: "text/plain" });
    store.vault.store(new TextEncoder().encode("hello"), { name: "b.txt", mime: "text/plain" });
    store.close();
    expect(readdirSync(join(dataDir, "vault"))).toEqual([file.sha256.slice(0, 2)]);
    expect(readdirSync(join(dataDir, "vault", file.sha256.slice(0, 2)))).toEqual([file.sha256]);
  });

  it("lets two stores on one dataDir see each other's committed writes only", () => {
    const dataDir = freshDir();
    const a = openSqliteStore({ dataDir });
    const b = openSqliteStore({ dataDir });
    try {
      const element = a.elements.insert(revision({ title: "from a" }));
      expect(b.elements.byId(element.id)).toEqual(element);
      b.catalog.saveStructure({ name: "from-b", fields: [] });
      expect(a.catalog.structure("from-b")?.id).toBe(1);
      expect(b.elements.insert(revision()).id).toBe(element.id + 1);
      a.transaction(() => {
        a.elements.save({ ...element, title: "pending" });
        expect(b.elements.byId(element.id)?.title).toBe("from a");
      });
      expect(b.elements.byId(element.id)?.title).toBe("pending");
    } finally {
      a.close();
      b.close();
    }
  });
});

describe("list query plan", () => {
  const ROWS = 100_000;
  const dataDir = freshDir();
  let client: Database.Database;

  beforeAll(() => {
    // The store's own migrations, with rows added in bulk since only the plan matters here.
    const store = openSqliteStore({ dataDir });
    for (let i = 0; i < 20; i++) store.catalog.saveStructure({ name: `s${i}`, fields: [] });
    store.close();
    client = new Database(join(dataDir, "lineage.sqlite"));
    client.prepare(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
      insert into elements (initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
      select i, 0, 's' || (i % 20), 'N' || i, 'title ' || (i * 7919 % 1000), i % 7, case when i % 10 = 0 then 'deleted' else 'alive' end,
        i % 3 = 0, null, json_object('n', i), '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', null
      from n`).run(ROWS);
    client.exec("analyze");
  });
  afterAll(() => client.close());

  function plan(query: Pick<ElementQuery, "orderBy" | "structures">): string[] {
    const { sql, params } = listStatementSql(drizzle({ client }), { ...query, limit: 10 });
    const values = { status: "alive", offset: 0, ...Object.fromEntries((query.structures ?? []).map((s, i) => [`s${i}`, s])) };
    const rows = client.prepare(`explain query plan ${sql}`).all(...fillPlaceholders(params, values)) as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  const titleThenId = [
    { kind: "property", key: "title", direction: "asc" },
    { kind: "property", key: "id", direction: "desc" },
  ] as const;

  /** Every step that reads elements goes through an index (a bare `SCAN elements` reads the whole table). */
  function expectIndexed(steps: string[]): void {
    const onElements = steps.filter((step) => /\belements\b/.test(step));
    expect(onElements.length).toBeGreaterThan(0);
    for (const step of onElements) expect(step).toMatch(/^(SEARCH|SCAN) elements USING (COVERING )?INDEX /);
  }

  it("reads the default page (latest alive, title asc, id desc) from an index, already in order", () => {
    const steps = plan({ orderBy: titleThenId });
    expectIndexed(steps);
    expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
  });

  it("reads a page of one structure from an index, already in order", () => {
    const steps = plan({ orderBy: titleThenId, structures: ["s3"] });
    expectIndexed(steps);
    expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
  });

  it("reads a page of several structures from an index", () => {
    expectIndexed(plan({ orderBy: titleThenId, structures: ["s3", "s4", "s5"] }));
  });

  it("writes the limit out, since SQLite prepares a statement again each time its LIMIT is bound", () => {
    const { sql } = listStatementSql(drizzle({ client }), { orderBy: titleThenId, limit: 10 });
    expect(sql).toMatch(/ limit 10 offset \?$/);
    expect(() => listStatementSql(drizzle({ client }), { orderBy: titleThenId, limit: 1.5 })).toThrow(RangeError);
  });

  it("gives the same page as a full sort would", () => {
    const reopened = openSqliteStore({ dataDir });
    try {
      const page = reopened.elements.list({ status: "alive", orderBy: titleThenId, limit: 10, offset: 20 });
      const expected = client.prepare(`
        select id from elements where status = 'alive' and fixed = 0 order by title, id desc limit 10 offset 20`).pluck().all();
      expect(page.map((r) => r.id)).toEqual(expected);
    } finally {
      reopened.close();
    }
  });
});
