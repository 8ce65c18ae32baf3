import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type {
  ElementQuery, ElementRepository, ElementRevision, NewRevision, OrderTerm, SORTABLE_PROPERTIES,
} from "@lineage/core";
import { elements, history, structures } from "./schema.ts";
import type { Atomic } from "./atomic.ts";

/** Element revisions and their history in SQLite, reads through cached prepared statements. */
export function createElementRepository(db: BetterSQLite3Database, client: Database, atomic: Atomic): ElementRepository {
  const byId = db.select().from(elements).where(eq(elements.id, sql.placeholder("id"))).prepare();
  const lineage = eq(elements.initid, sql.placeholder("initid"));
  // Mirrors the fake: the live revision when there is one, else the highest revision.
  const latest = db.select().from(elements).where(lineage)
    .orderBy(asc(elements.fixed), desc(elements.revision), desc(elements.id)).limit(1).prepare();
  const latestByName = db.select().from(elements)
    .where(and(eq(elements.name, sql.placeholder("name")), eq(elements.fixed, false)))
    .orderBy(sql`${elements.status} = 'alive' desc`, desc(elements.revision), desc(elements.id)).limit(1).prepare();
  const revisions = db.select().from(elements).where(lineage).orderBy(desc(elements.revision), desc(elements.id)).prepare();
  const byImportKey = db.select().from(elements).where(eq(elements.importKey, sql.placeholder("key")))
    .orderBy(asc(elements.fixed), desc(elements.revision), desc(elements.id)).limit(1).prepare();
  const historyOf = db.select().from(history).where(eq(history.initid, sql.placeholder("initid")))
    .orderBy(desc(history.revision), desc(history.date), desc(history.id)).prepare();
  const lists = new Map<string, ListStatement>();
  // Writes on the import path go straight to better-sqlite3: drizzle would build and prepare them anew for every row.
  const insertRow = client.prepare(
    `insert into elements (initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
     values (@initid, @revision, @structure, @name, @title, @owner, @status, @fixed, @state, @values, @createdAt, @modifiedAt, @importKey)`,
  );
  const setInitid = client.prepare("update elements set initid = id where id = ?");
  const insertHistory = client.prepare(
    `insert into history (initid, revision_id, revision, account_id, account_name, date, level, code, comment)
     values (@initid, @revisionId, @revision, @accountId, @accountName, @date, @level, @code, @comment)`,
  );

  return {
    insert(revision) {
      const stored = columns(revision);
      return atomic(() => {
        const { lastInsertRowid } = insertRow.run({
          ...stored, initid: revision.initid ?? 0, fixed: stored.fixed ? 1 : 0, values: JSON.stringify(stored.values),
        });
        const id = Number(lastInsertRowid);
        // The initid of a new lineage is the id SQLite just gave, so it can only be set afterwards.
        if (revision.initid === undefined) setInitid.run(id);
        return { ...stored, id, initid: revision.initid ?? id };
      });
    },
    save(revision) {
      const { changes } = db.update(elements).set({ ...columns(revision), initid: revision.initid })
        .where(eq(elements.id, revision.id)).run();
      if (changes === 0) throw new Error(`No revision ${revision.id} to save`);
    },
    byId: (id) => byId.get({ id }),
    latestByName: (name) => latestByName.get({ name }),
    latest: (initid) => latest.get({ initid }),
    revisions: (initid) => revisions.all({ initid }),
    byImportKey: (key) => byImportKey.get({ key }),
    setLineageStatus(initid, status, modifiedAt) {
      atomic(() => {
        db.update(elements).set({ status }).where(eq(elements.initid, initid)).run();
        // Fixed revisions are snapshots: only the live one records when the lineage moved.
        const live = latest.get({ initid });
        if (live) db.update(elements).set({ modifiedAt }).where(eq(elements.id, live.id)).run();
      });
    },
    list(query) {
      if (query.structures?.length === 0) return [];
      const key = JSON.stringify([query.orderBy, query.structures?.length]);
      let statement = lists.get(key);
      if (!statement) {
        // Orders come from requests: bound the cache rather than keep every combination ever asked.
        if (lists.size >= 200) lists.clear();
        statement = listQuery(db, query).prepare();
        lists.set(key, statement);
      }
      const structureParams = Object.fromEntries((query.structures ?? []).map((name, i) => [`s${i}`, name]));
      return statement.all({ status: query.status, limit: query.limit ?? -1, offset: query.offset, ...structureParams });
    },
    appendHistory(entry) {
      insertHistory.run(entry);
    },
    history: (initid) => historyOf.all({ initid }).map(({ id: _sequence, ...entry }) => entry),
  };
}

type ListStatement = ReturnType<ReturnType<typeof listQuery>["prepare"]>;

/**
 * The list query with placeholders `status`, `limit`, `offset` and `s0..sN`
 * (one per structure); exported so tests can check its query plan.
 */
export function listQuery(db: BetterSQLite3Database, query: Pick<ElementQuery, "orderBy" | "structures">) {
  const where = [eq(elements.status, sql.placeholder("status")), eq(elements.fixed, false)];
  if (query.structures) {
    where.push(inArray(elements.structure, query.structures.map((_, i) => sql.placeholder(`s${i}`))));
  }
  return db.select().from(elements).where(and(...where))
    .orderBy(...closeWithId(query.orderBy).map(orderExpression))
    .limit(sql.placeholder("limit")).offset(sql.placeholder("offset"));
}

type SortableProperty = (typeof SORTABLE_PROPERTIES)[number];

const PROPERTY_EXPRESSIONS: Readonly<Record<SortableProperty, SQLiteColumn | SQL>> = {
  id: elements.id,
  initid: elements.initid,
  title: elements.title,
  name: elements.name,
  revision: elements.revision,
  owner: elements.owner,
  state: elements.state,
  fromname: elements.structure,
  fromid: sql`(select ${structures.id} from ${structures} where ${structures.name} = ${elements.structure})`,
  cdate: elements.createdAt,
  mdate: elements.modifiedAt,
  status: elements.status,
};

/** Terms closed by `id desc` unless they sort on id already, so every order is total (as in the fake). */
function closeWithId(terms: readonly OrderTerm[]): readonly OrderTerm[] {
  if (terms.some((t) => t.kind === "property" && t.key === "id")) return terms;
  return [...terms, { kind: "property", key: "id", direction: "desc" }];
}

function orderExpression(term: OrderTerm): SQL {
  const expression = term.kind === "field" ? sql`json_extract(${elements.values}, ${jsonPath(term.key)})` : property(term.key);
  return term.direction === "asc" ? asc(expression) : desc(expression);
}

function property(key: string): SQLiteColumn | SQL {
  if (!Object.hasOwn(PROPERTY_EXPRESSIONS, key)) throw new Error(`Unknown sort property "${key}"`);
  return PROPERTY_EXPRESSIONS[key as SortableProperty];
}

/** A JSON path to one key, quoted so dots and brackets in field ids stay part of the key. */
function jsonPath(key: string): string {
  return `$."${key.replace(/["\\]/g, "\\$&")}"`;
}

/** Picks the stored columns only: callers may pass richer objects than a revision. */
function columns(r: NewRevision): Omit<ElementRevision, "id" | "initid"> {
  return {
    revision: r.revision, structure: r.structure, name: r.name, title: r.title, owner: r.owner, status: r.status,
    fixed: r.fixed, state: r.state, values: r.values, createdAt: r.createdAt, modifiedAt: r.modifiedAt, importKey: r.importKey,
  };
}
