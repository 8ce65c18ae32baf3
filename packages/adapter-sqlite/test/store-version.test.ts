import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requestVersion } from "@lineage/core";
import { seededPlatform } from "../../core/test/fixture.ts";
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

describe("the platform's caches over SQLite", () => {
  it("see a write and a rights change committed by another connection, one request later", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lineage-version-platform-"));
    const { platform, store } = await seededPlatform(openSqliteStore({ dataDir }));
    const other = openSqliteStore({ dataDir });
    try {
      const first = requestVersion(store);
      const bob = await platform.authenticate("bob", "bob-pw", first);
      const before = await platform.readElement(bob!, "ART_HELLO", { version: first });
      expect(before.data.document.properties?.title).toBe("Hello");

      // Another process would go through its own connection: this one is such a connection.
      const hello = other.elements.latestByName("ART_HELLO")!;
      other.transaction(() => other.elements.save({
        ...hello, title: "Changed elsewhere", values: { ...hello.values, ar_title: "Changed elsewhere" }, modifiedAt: "2026-06-01T00:00:00.000Z",
      }));
      const second = requestVersion(store);
      const after = await platform.readElement(platform.principal("bob", second)!, "ART_HELLO", { version: second });
      expect(after.data.document.properties?.title).toBe("Changed elsewhere");
      expect(after.etag).not.toBe(before.etag);

      const account = other.accounts.byLogin("bob")!;
      other.transaction(() => other.accounts.saveAccount({ ...account, roles: [] }));
      const third = requestVersion(store);
      const demoted = await platform.authenticate("bob", "bob-pw", third);
      expect(demoted?.roles.size).toBe(0);
      await expect(platform.readElement(demoted!, "ART_HELLO", { version: third })).rejects.toMatchObject({ status: 403 });
    } finally {
      other.close();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
