import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import type { NewRevision, Store } from "@lineage/core";
import { elementFilterContract, eventLogContract, folderRepositoryContract, lockRepositoryContract, storeContract, webhookRepositoryContract } from "@lineage/core/testing";
import { openSqliteStore } from "../src/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

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

/** A promise with its resolve function, to hold a transaction open at a chosen await. */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const revision = (overrides: Partial<NewRevision> = {}): NewRevision => ({
  revision: 0, structure: "article", name: null, title: "Title", owner: 1, status: "alive", fixed: false, state: null,
  values: {}, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null, ...overrides,
});

storeContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));
elementFilterContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));
eventLogContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));
folderRepositoryContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));
lockRepositoryContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));
webhookRepositoryContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));

describe("openSqliteStore", () => {
  const migrationFiles = () => readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql")).sort();

  it("keeps data across reopening and applies migrations once", async () => {
    const dataDir = freshDir();
    let store: Store = openSqliteStore({ dataDir });
    const kept = await store.elements.insert(revision({ name: "KEPT" }));
    const structure = await store.catalog.saveStructure({ name: "article", fields: [] });
    const file = await store.vault.store(new TextEncoder().encode("kept"), { name: "kept.txt", mime: "text/plain" });
    await store.close();
    const migrations = () => inspect(dataDir, (c) => c.prepare("select hash, created_at from __drizzle_migrations").all());
    const applied = migrations();
    expect(applied).toHaveLength(migrationFiles().length);

    store = openSqliteStore({ dataDir });
    try {
      expect(migrations()).toEqual(applied);
      expect(await store.elements.latestByName("KEPT")).toEqual(kept);
      expect((await store.elements.insert(revision())).id).toBeGreaterThan(kept.id);
      expect((await store.catalog.structure("article"))?.id).toBe(structure.id);
      expect(await store.vault.read(file.id)).toEqual(new TextEncoder().encode("kept"));
    } finally {
      await store.close();
    }
  });

  it("migrates a data directory made before the definitions counter, keeping its data", async () => {
    const dataDir = freshDir();
    // The migrations as they stood before 0004, applied as the previous version of the store did.
    const before = join(freshDir(), "drizzle");
    cpSync(MIGRATIONS, before, { recursive: true });
    const journalFile = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < "0004");
    writeFileSync(journalFile, JSON.stringify(journal));
    const old = new Database(join(dataDir, "lineage.sqlite"));
    migrate(drizzle({ client: old }), { migrationsFolder: before });
    old.prepare(`insert into enumerates (name, definition) values ('COLORS', '{"name":"COLORS","items":[]}')`).run();
    old.close();

    const store = openSqliteStore({ dataDir });
    try {
      expect(await store.catalog.enumerate("COLORS")).toEqual({ name: "COLORS", items: [] });
      // Raised once by the migration of the system structures (0012).
      const stamp = await store.changes.read();
      expect(stamp.definitions).toBe("1");
      await store.catalog.saveEnumerate({ name: "COLORS", items: [{ key: "red", label: "Red" }] });
      expect((await store.changes.read()).definitions).toBe("2");
      expect(inspect(dataDir, (c) => c.prepare("select count(*) from __drizzle_migrations").pluck().get())).toBe(migrationFiles().length);
    } finally {
      await store.close();
    }
  });

  it("migrates a data directory made before rights per element: its elements under their structure's profile, listed by it", async () => {
    const dataDir = freshDir();
    // The migrations as they stood before 0007, applied as the previous version of the store did.
    const before = join(freshDir(), "drizzle");
    cpSync(MIGRATIONS, before, { recursive: true });
    const journalFile = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < "0007");
    writeFileSync(journalFile, JSON.stringify(journal));
    const old = new Database(join(dataDir, "lineage.sqlite"));
    migrate(drizzle({ client: old }), { migrationsFolder: before });
    old.prepare(`insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
      values (1, 0, 'article', 'Old', 1, 'alive', 0, '{}', '2024-01-01', '2024-01-01')`).run();
    old.close();

    const store = openSqliteStore({ dataDir });
    try {
      expect(await store.elements.latest(1)).toMatchObject({ title: "Old", ownProfile: null, profile: null });
      const list = (readable: { structures: string[]; profiles: string[] }) =>
        store.elements.list({ status: "alive", readable, orderBy: [{ kind: "property", key: "title", direction: "asc" }], limit: 10, offset: 0 });
      expect((await list({ structures: ["article"], profiles: [] })).map((r) => r.title)).toEqual(["Old"]);
      expect(await list({ structures: ["note"], profiles: ["article"] })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("migrates a data directory made before the system structures and the owner grant: they join its own, whose lists filter owners", async () => {
    const dataDir = freshDir();
    // The migrations as they stood before 0010, applied as the previous version of the store did.
    const before = join(freshDir(), "drizzle");
    cpSync(MIGRATIONS, before, { recursive: true });
    const journalFile = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < "0010");
    writeFileSync(journalFile, JSON.stringify(journal));
    const old = new Database(join(dataDir, "lineage.sqlite"));
    migrate(drizzle({ client: old }), { migrationsFolder: before });
    old.prepare(`insert into structures (name, definition) values ('article', '{"name":"article","fields":[{"id":"n","type":"int"}]}')`).run();
    for (const [initid, owner, n] of [[1, 7, 2], [2, 8, 1], [3, 7, 3]]) {
      old.prepare(`insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
        values (?, 0, 'article', ?, ?, 'alive', 0, ?, '2024-01-01', '2024-01-01')`).run(initid, `A${initid}`, owner, JSON.stringify({ n }));
    }
    old.close();

    const store = openSqliteStore({ dataDir });
    try {
      const structures = await store.catalog.structures();
      expect(structures.map((s) => s.name)).toEqual(["article", "DIR", "SEARCH", "REPORT"]);
      expect(structures[1]!.id).toBeGreaterThan(structures[0]!.id);
      // The element's owner alone, in the orders of the list indexes and of a field's.
      const owned = { structures: [], profiles: [], owned: { owner: 7, structures: ["article"], profiles: [] } };
      for (const orderBy of [[{ kind: "property", key: "title", direction: "asc" }], [{ kind: "field", key: "n", direction: "desc" }]] as const) {
        const page = await store.elements.list({ status: "alive", structures: ["article"], readable: owned, orderBy, limit: 10, offset: 0 });
        expect(page.map((r) => r.title)).toEqual(orderBy[0].kind === "field" ? ["A3", "A1"] : ["A1", "A3"]);
      }
      const folder = await store.elements.insert({
        revision: 0, structure: "DIR", name: null, title: "F", owner: 7, status: "alive", fixed: false, state: null, values: { ba_title: "F" },
        createdAt: "2024-01-02", modifiedAt: "2024-01-02", importKey: null, ownProfile: null, profile: null,
      });
      expect(await store.elements.structuresOwned(7, ["DIR", "SEARCH"])).toEqual(["DIR"]);
      expect(folder.structure).toBe("DIR");
    } finally {
      await store.close();
    }
  });

  it("migrates a data directory made while search kept its own change log: the log goes, every domain's index is built again", async () => {
    const dataDir = freshDir();
    // The migrations as they stood before 0018, applied as the previous version of the store did.
    const before = join(freshDir(), "drizzle");
    cpSync(MIGRATIONS, before, { recursive: true });
    const journalFile = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < "0018");
    writeFileSync(journalFile, JSON.stringify(journal));
    const old = new Database(join(dataDir, "lineage.sqlite"));
    migrate(drizzle({ client: old }), { migrationsFolder: before });
    old.prepare(`insert into search_domains (name, definition, generation) values ('articles', '{"name":"articles","lang":"en","stem":"english","configs":[]}', 2)`).run();
    // A change its index had not applied yet: only a rebuild finds it now.
    old.prepare("insert into search_changes (initid, structure, seq) values (1, 'article', 7)").run();
    old.close();

    const store = openSqliteStore({ dataDir });
    try {
      expect(await store.search.generation("articles")).toBe(3);
      expect(inspect(dataDir, (c) => c.prepare("select count(*) from sqlite_master where name = 'search_changes'").pluck().get())).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("runs in WAL mode with the connection settings it asks for", async () => {
    const dataDir = freshDir();
    await openSqliteStore({ dataDir }).close();
    expect(inspect(dataDir, (c) => c.pragma("journal_mode", { simple: true }))).toBe("wal");
  });

  it("keeps vault content by sha256 under two-letter folders, with no temporary file left", async () => {
    const dataDir = freshDir();
    const store = openSqliteStore({ dataDir });
    const file = await store.vault.store(new TextEncoder().encode("hello"), { name: "a.txt", mime: "text/plain" });
    await store.vault.store(new TextEncoder().encode("hello"), { name: "b.txt", mime: "text/plain" });
    await store.close();
    expect(readdirSync(join(dataDir, "vault"))).toEqual([file.sha256.slice(0, 2)]);
    expect(readdirSync(join(dataDir, "vault", file.sha256.slice(0, 2)))).toEqual([file.sha256]);
  });

  it("lets two stores on one dataDir see each other's committed writes only", async () => {
    const dataDir = freshDir();
    const a = openSqliteStore({ dataDir });
    const b = openSqliteStore({ dataDir });
    try {
      const element = await a.elements.insert(revision({ title: "from a" }));
      expect(await b.elements.byId(element.id)).toEqual(element);
      const structure = await b.catalog.saveStructure({ name: "from-b", fields: [] });
      expect(await a.catalog.structure("from-b")).toEqual(structure);
      expect((await b.elements.insert(revision())).id).toBeGreaterThan(element.id);
      await a.transaction(async (tx) => {
        await tx.elements.save({ ...element, title: "pending" });
        expect((await b.elements.byId(element.id))?.title).toBe("from a");
      });
      expect((await b.elements.byId(element.id))?.title).toBe("pending");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("waits for another store's transaction on the same file without blocking reads", async () => {
    const dataDir = freshDir();
    const a = openSqliteStore({ dataDir });
    const b = openSqliteStore({ dataDir });
    try {
      const existing = await a.elements.insert(revision({ name: "EXISTING" }));
      const entered = deferred();
      const release = deferred();
      const first = a.transaction(async (tx) => {
        const element = await tx.elements.insert(revision({ name: "FIRST" }));
        entered.resolve();
        await release.promise;
        return element;
      });
      await entered.promise;
      // b's BEGIN IMMEDIATE finds a's write lock: it waits without holding the event loop.
      const second = b.transaction(async (tx) => tx.elements.insert(revision({ name: "SECOND" })));
      try {
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(await b.elements.byId(existing.id)).toEqual(existing);
        expect(await b.elements.latestByName("FIRST")).toBeUndefined();
      } finally {
        release.resolve();
      }
      const [one, two] = await Promise.all([first, second]);
      expect(two.id).toBeGreaterThan(one.id);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("finishes the transactions already asked for before it closes, and refuses new ones", async () => {
    const store = openSqliteStore({ dataDir: freshDir() });
    const release = deferred();
    const pending = store.transaction(async (tx) => {
      await release.promise;
      return tx.elements.insert(revision({ name: "LAST" }));
    });
    const closed = store.close();
    try {
      await expect(store.transaction(async () => undefined)).rejects.toThrow("closed");
    } finally {
      release.resolve();
    }
    expect((await pending).name).toBe("LAST");
    await closed;
    await store.close();
  });
});
