import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openPostgresStore } from "../src/index.ts";

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "lineage-pg-migrations-"));
const database = `lineage_migrate_${process.pid}_${Date.now()}`;
const server = inject("postgresUrl");

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

/** The migrations as they stood before `tag`, for a database the previous version of the store made. */
function migrationsBefore(tag: string): string {
  const before = join(folder, tag);
  cpSync(MIGRATIONS, before, { recursive: true });
  const journalFile = join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < tag);
  writeFileSync(journalFile, JSON.stringify(journal));
  return before;
}

describe("migrateSchema", () => {
  it("migrates a database made before rights per element: its elements under their structure's profile, listed by it", async () => {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${database}`;
    const old = new pg.Client({ connectionString: url.toString() });
    await old.connect();
    try {
      await migrate(drizzle({ client: old }), { migrationsFolder: migrationsBefore("0005") });
      await old.query(`insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
        values (1, 0, 'article', 'Old', 1, 'alive', false, '{}', '2024-01-01', '2024-01-01')`);
    } finally {
      await old.end();
    }

    const store = await openPostgresStore({ url: url.toString() });
    try {
      expect(await store.elements.latest(1)).toMatchObject({ title: "Old", ownProfile: null, profile: null });
      const list = (readable: { structures: string[]; profiles: string[] }) =>
        store.elements.list({ status: "alive", readable, orderBy: [{ kind: "property", key: "title", direction: "asc" }], limit: 10, offset: 0 });
      expect((await list({ structures: ["article"], profiles: [] })).map((r) => r.title)).toEqual(["Old"]);
      expect(await list({ structures: ["note"], profiles: ["article"] })).toEqual([]);
      const migrated = readdirSync(MIGRATIONS).filter((file) => file.endsWith(".sql")).length;
      const verify = new pg.Client({ connectionString: url.toString() });
      await verify.connect();
      try {
        expect((await verify.query("select count(*)::int as n from drizzle.__drizzle_migrations")).rows[0].n).toBe(migrated);
      } finally {
        await verify.end();
      }
    } finally {
      await store.close();
    }
  });
});
