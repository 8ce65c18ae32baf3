import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openSqliteStore } from "../src/index.ts";

const dir = mkdtempSync(join(tmpdir(), "lineage-version-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("changes when another connection on the same file commits, and only then", () => {
  const server = openSqliteStore({ dataDir: dir });
  const importer = openSqliteStore({ dataDir: dir });
  const before = server.version();
  expect(server.version()).toBe(before);
  importer.catalog.saveEnumerate({ name: "COLORS", items: [{ key: "red", label: "Red" }] });
  const after = server.version();
  expect(after).not.toBe(before);
  expect(server.version()).toBe(after);
  importer.close();
  server.close();
});

it("changes after a rolled-back write too, so nothing read inside it is reused", () => {
  const store = openSqliteStore({ dataDir: dir });
  const before = store.version();
  expect(() => store.transaction(() => {
    store.catalog.saveEnumerate({ name: "GONE", items: [] });
    throw new Error("roll back");
  })).toThrow("roll back");
  expect(store.version()).not.toBe(before);
  store.close();
});
