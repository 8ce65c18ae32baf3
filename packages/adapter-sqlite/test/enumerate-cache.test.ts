import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Enumerate } from "@lineage/core";
import { openSqliteStore } from "../src/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lineage-enum-cache-"));
  dirs.push(dir);
  return dir;
}

const colors = (...keys: string[]): Enumerate => ({ name: "COLORS", items: keys.map((key) => ({ key, label: key.toUpperCase() })) });

describe("enumerates read from SQLite", () => {
  it("are the same frozen object while unchanged, so per-object lookup indexes last", () => {
    const store = openSqliteStore({ dataDir: freshDir() });
    store.catalog.saveEnumerate(colors("red", "blue"));
    const first = store.catalog.enumerate("COLORS");
    expect(store.catalog.enumerate("COLORS")).toBe(first);
    expect(first).toEqual(colors("red", "blue"));
    expect(Object.isFrozen(first) && Object.isFrozen(first?.items[0])).toBe(true);
    expect(store.catalog.enumerate("NOPE")).toBeUndefined();
    store.close();
  });

  it("change with a write, and not with a rolled-back one", () => {
    const store = openSqliteStore({ dataDir: freshDir() });
    store.catalog.saveEnumerate(colors("red"));
    const before = store.catalog.enumerate("COLORS");
    store.catalog.saveEnumerate(colors("red", "green"));
    expect(store.catalog.enumerate("COLORS")).toEqual(colors("red", "green"));
    expect(store.catalog.enumerate("COLORS")).not.toBe(before);
    expect(() => store.transaction(() => {
      store.catalog.saveEnumerate(colors("black"));
      expect(store.catalog.enumerate("COLORS")).toEqual(colors("black"));
      throw new Error("roll back");
    })).toThrow("roll back");
    expect(store.catalog.enumerate("COLORS")).toEqual(colors("red", "green"));
    store.close();
  });

  it("change when another connection on the same file commits", () => {
    const dataDir = freshDir();
    const server = openSqliteStore({ dataDir });
    const importer = openSqliteStore({ dataDir });
    server.catalog.saveEnumerate(colors("red"));
    expect(server.catalog.enumerate("COLORS")).toEqual(colors("red"));
    importer.catalog.saveEnumerate(colors("red", "white"));
    expect(server.catalog.enumerate("COLORS")).toEqual(colors("red", "white"));
    importer.close();
    server.close();
  });
});
