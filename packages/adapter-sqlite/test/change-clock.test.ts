import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPlatform, type Enumerate } from "@lineage/core";
import { seededPlatform } from "@lineage/core/testing";
import { openSqliteStore } from "../src/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lineage-clock-"));
  dirs.push(dir);
  return dir;
}

const colors = (...keys: string[]): Enumerate => ({ name: "COLORS", items: keys.map((key) => ({ key, label: key.toUpperCase() })) });

describe("the change clock on SQLite", () => {
  it("moves when another store on the same file commits, and only then", async () => {
    const dataDir = freshDir();
    const server = openSqliteStore({ dataDir });
    const importer = openSqliteStore({ dataDir });
    try {
      const before = await server.changes.read();
      expect(await server.changes.read()).toEqual(before);
      await importer.elements.insert({
        revision: 0, structure: "article", name: null, title: "T", owner: 1, status: "alive", fixed: false, state: null,
        values: {}, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null,
      });
      const afterData = await server.changes.read();
      expect(afterData.data).not.toBe(before.data);
      expect(afterData.definitions).toBe(before.definitions);
      await importer.catalog.saveEnumerate(colors("red"));
      const afterDefinitions = await server.changes.read();
      expect(afterDefinitions.data).not.toBe(afterData.data);
      expect(afterDefinitions.definitions).not.toBe(before.definitions);
      expect(await server.changes.read()).toEqual(afterDefinitions);
      // The definitions counter is the file's: both stores tell the same.
      expect((await importer.changes.read()).definitions).toBe(afterDefinitions.definitions);
    } finally {
      await importer.close();
      await server.close();
    }
  });

  it("gives each store data stamps of its own, the pragma's values being its connection's", async () => {
    const dataDir = freshDir();
    const a = openSqliteStore({ dataDir });
    const b = openSqliteStore({ dataDir });
    try {
      expect((await a.changes.read()).data).not.toBe((await b.changes.read()).data);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("core's definitions over SQLite", () => {
  it("are the same frozen objects while unchanged, so per-object lookup indexes last", async () => {
    const store = openSqliteStore({ dataDir: freshDir() });
    try {
      const platform = createPlatform({ store });
      await store.catalog.saveEnumerate(colors("red", "blue"));
      const first = (await platform.structures.definitions()).enumerate("COLORS");
      expect(first).toEqual(colors("red", "blue"));
      expect(Object.isFrozen(first) && Object.isFrozen(first?.items[0])).toBe(true);
      await store.elements.insert({
        revision: 0, structure: "article", name: null, title: "T", owner: 1, status: "alive", fixed: false, state: null,
        values: {}, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt: "2024-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null,
      });
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveEnumerate(colors("black"));
        throw new Error("roll back");
      })).rejects.toThrow("roll back");
      expect((await platform.structures.definitions()).enumerate("COLORS")).toBe(first);
    } finally {
      await store.close();
    }
  });

  it("are read again when another store on the same file commits one", async () => {
    const dataDir = freshDir();
    const server = openSqliteStore({ dataDir });
    const importer = openSqliteStore({ dataDir });
    try {
      const platform = createPlatform({ store: server });
      await server.catalog.saveEnumerate(colors("red"));
      expect((await platform.structures.definitions()).enumerate("COLORS")).toEqual(colors("red"));
      await importer.catalog.saveEnumerate(colors("red", "white"));
      expect((await platform.structures.definitions()).enumerate("COLORS")).toEqual(colors("red", "white"));
    } finally {
      await importer.close();
      await server.close();
    }
  });
});

describe("the platform's caches over SQLite", () => {
  it("see a write and a rights change committed by another store, one request later", async () => {
    const dataDir = freshDir();
    const { platform, store } = await seededPlatform(openSqliteStore({ dataDir }));
    const other = openSqliteStore({ dataDir });
    try {
      const first = await store.changes.read();
      const bob = await platform.accounts.authenticate("bob", "bob-pw", first);
      const before = await platform.elements.read(bob!, "ART_HELLO", { stamp: first });
      expect(before.data.document.properties?.title).toBe("Hello");

      // Another process would go through its own connections: this store is such a one.
      const hello = (await other.elements.latestByName("ART_HELLO"))!;
      await other.transaction((tx) => tx.elements.save({
        ...hello, title: "Changed elsewhere", values: { ...hello.values, ar_title: "Changed elsewhere" }, modifiedAt: "2026-06-01T00:00:00.000Z",
      }));
      const second = await store.changes.read();
      const after = await platform.elements.read((await platform.accounts.principal("bob", second))!, "ART_HELLO", { stamp: second });
      expect(after.data.document.properties?.title).toBe("Changed elsewhere");
      expect(after.etag).not.toBe(before.etag);

      const account = (await other.accounts.byLogin("bob"))!;
      await other.transaction((tx) => tx.accounts.saveAccount({ ...account, roles: [] }));
      const third = await store.changes.read();
      const demoted = await platform.accounts.authenticate("bob", "bob-pw", third);
      expect(demoted?.roles.size).toBe(0);
      await expect(platform.elements.read(demoted!, "ART_HELLO", { stamp: third })).rejects.toMatchObject({ status: 403 });
    } finally {
      await other.close();
      await store.close();
    }
  });
});
