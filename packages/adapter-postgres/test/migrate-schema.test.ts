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

/** A new database on the run's server, made by the migrations before `tag`, with what `fill` writes; its URL. */
async function databaseBefore(tag: string, fill: (client: pg.Client) => Promise<void>): Promise<string> {
  const name = `${database}_${tag}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  made.push(name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const old = new pg.Client({ connectionString: url.toString() });
  await old.connect();
  try {
    await migrate(drizzle({ client: old }), { migrationsFolder: migrationsBefore(tag) });
    await fill(old);
  } finally {
    await old.end();
  }
  return url.toString();
}

const made: string[] = [];
afterAll(async () => {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe("migrateSchema", () => {
  it("migrates a database made before the system structures and the owner grant: they join its own, whose lists filter owners", async () => {
    const url = await databaseBefore("0008", async (old) => {
      await old.query(`insert into structures (name, definition, sort_fields) values ('article', '{"name":"article","fields":[{"id":"n","type":"int"}]}', '{n}')`);
      for (const [initid, owner, n] of [[1, 7, 2], [2, 8, 1], [3, 7, 3]]) {
        await old.query(`insert into elements (initid, revision, structure, title, owner, status, fixed, "values", created_at, modified_at)
          values ($1, 0, 'article', $2, $3, 'alive', false, $4, '2024-01-01', '2024-01-01')`, [initid, `A${initid}`, owner, JSON.stringify({ n })]);
      }
    });
    const store = await openPostgresStore({ url });
    try {
      const structures = await store.catalog.structures();
      expect(structures.map((s) => s.name)).toEqual(["article", "DIR", "SEARCH", "REPORT"]);
      // The element's owner alone, in the orders of the list indexes and of a field's sort keys (their owner filled in).
      const owned = { structures: [], profiles: [], owned: { owner: 7, structures: ["article"], profiles: [] } };
      for (const orderBy of [[{ kind: "property", key: "title", direction: "asc" }], [{ kind: "field", key: "n", direction: "desc" }]] as const) {
        const page = await store.elements.list({ status: "alive", structures: ["article"], readable: owned, orderBy, limit: 10, offset: 0 });
        expect(page.map((r) => r.title)).toEqual(orderBy[0].kind === "field" ? ["A3", "A1"] : ["A1", "A3"]);
      }
      expect(await store.elements.structuresOwned(7, ["article", "DIR"])).toEqual(["article"]);
    } finally {
      await store.close();
    }
  });


  it("migrates a database made while search kept its own change log: the log goes, every domain's index is built again", async () => {
    const url = await databaseBefore("0018", async (old) => {
      await old.query(`insert into search_domains (name, definition, generation) values ('articles', '{"name":"articles","lang":"en","stem":"english","configs":[]}', 2)`);
      // A change its index had not applied yet: only a rebuild finds it now.
      await old.query("insert into search_changes (initid, structure, seq) values (1, 'article', nextval('lineage_seq'))");
    });
    const store = await openPostgresStore({ url });
    try {
      expect(await store.search.generation("articles")).toBe(3);
      const verify = new pg.Client({ connectionString: url });
      await verify.connect();
      try {
        expect((await verify.query("select to_regclass('search_changes') as found")).rows[0].found).toBeNull();
      } finally {
        await verify.end();
      }
    } finally {
      await store.close();
    }
  });

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
