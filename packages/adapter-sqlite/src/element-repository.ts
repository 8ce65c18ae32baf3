import { and, asc, desc, eq, inArray, Placeholder, sql, type SQL } from "drizzle-orm";
import type { Database, Statement } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type {
  ElementQuery, ElementRepository, ElementRevision, ElementValues, LineageStatus, NewRevision, OrderTerm, SORTABLE_PROPERTIES,
} from "@lineage/core";
import { elements, history, structures } from "./schema.ts";

/** The columns of a revision, in the order every read selects them (toRevision maps them). */
const COLUMNS = `id, initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key`;

/** The live revision of a lineage when there is one, else its highest (as the fake picks it). */
const LATEST_ORDER = "order by fixed asc, revision desc, id desc limit 1";
/** The live revision of a name, a lineage out of the trash first. */
const LATEST_BY_NAME = "name = ? and fixed = 0 order by status = 'alive' desc, revision desc, id desc limit 1";

/**
 * The WHERE clauses of the batch reads, their keys one JSON array; exported so that tests can
 * check their query plans. On a table of any size SQLite looks each key up by index (it scans
 * only a table its statistics tell is tiny).
 */
export const BATCH_READS = {
  byIds: "id in (select value from json_each(?))",
  latestMany: `id in (select (select id from elements where initid = keys.value ${LATEST_ORDER}) from json_each(?) as keys)`,
  latestByNames: `id in (select (select id from elements where ${LATEST_BY_NAME.replace("name = ?", "name = keys.value")}) from json_each(?) as keys)`,
} as const;

/**
 * Element revisions and their history in SQLite, on one connection, reads through cached prepared
 * statements. Reads are prepared on the client with their LIMIT written out: SQLite re-prepares a
 * statement whenever a bound LIMIT is bound again (it plans with the limit's value), and drizzle
 * binds every limit, `.limit(1)` included, so each call would be parsed and planned anew.
 * Batch reads take their keys as one JSON array (`json_each`): one prepared statement serves any
 * number of keys, with no limit on bound variables to chunk around.
 * Writes expect the connection's transaction to be open (the store runs them in one).
 */
export function createElementRepository(db: BetterSQLite3Database, client: Database): ElementRepository {
  const read = (where: string) => rows(client.prepare(`select ${COLUMNS} from elements where ${where}`));
  const byId = read("id = ?");
  const byIds = read(BATCH_READS.byIds);
  const latest = read(`initid = ? ${LATEST_ORDER}`);
  const latestMany = read(BATCH_READS.latestMany);
  const latestByName = read(LATEST_BY_NAME);
  const latestByNames = read(BATCH_READS.latestByNames);
  const revisions = read("initid = ? order by revision desc, id desc");
  const byImportKey = read(`import_key = ? ${LATEST_ORDER}`);
  const one = (row: ElementRow | undefined) => (row === undefined ? undefined : toRevision(row));
  const historyOf = db.select().from(history).where(eq(history.initid, sql.placeholder("initid")))
    .orderBy(desc(history.revision), desc(history.date), desc(history.id)).prepare();
  const lists = new Map<string, ListStatement>();
  // Writes on the import path go straight to better-sqlite3: drizzle would build and prepare them anew for every row.
  const insertRow = client.prepare(
    `insert into elements (initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
     values (@initid, @revision, @structure, @name, @title, @owner, @status, @fixed, @state, @values, @createdAt, @modifiedAt, @importKey)`,
  );
  const setInitid = client.prepare("update elements set initid = id where id = ?");
  // Saved at every PUT and revision: prepared once, as the inserts are.
  const updateRow = client.prepare(
    `update elements set initid = @initid, revision = @revision, structure = @structure, name = @name, title = @title, owner = @owner,
     status = @status, fixed = @fixed, state = @state, "values" = @values, created_at = @createdAt, modified_at = @modifiedAt,
     import_key = @importKey where id = @id`,
  );
  const insertHistory = client.prepare(
    `insert into history (initid, revision_id, revision, account_id, account_name, date, level, code, comment)
     values (@initid, @revisionId, @revision, @accountId, @accountName, @date, @level, @code, @comment)`,
  );

  return {
    async insert(revision) {
      const stored = columns(revision);
      const { lastInsertRowid } = insertRow.run({
        ...stored, initid: revision.initid ?? 0, fixed: stored.fixed ? 1 : 0, values: JSON.stringify(stored.values),
      });
      const id = Number(lastInsertRowid);
      // The initid of a new lineage is the id SQLite just gave, so it can only be set afterwards.
      if (revision.initid === undefined) setInitid.run(id);
      return { ...stored, id, initid: revision.initid ?? id };
    },
    async save(revision) {
      const stored = columns(revision);
      const { changes } = updateRow.run({
        ...stored, id: revision.id, initid: revision.initid, fixed: stored.fixed ? 1 : 0, values: JSON.stringify(stored.values),
      });
      if (changes === 0) throw new Error(`No revision ${revision.id} to save`);
    },
    async byId(id) {
      return one(byId.get(id));
    },
    byIds: batch(byId, byIds),
    async latestByName(name) {
      return one(latestByName.get(name));
    },
    latestByNames: batch(latestByName, latestByNames),
    async latest(initid) {
      return one(latest.get(initid));
    },
    latestMany: batch(latest, latestMany),
    async revisions(initid) {
      return revisions.all(initid).map(toRevision);
    },
    async byImportKey(key) {
      return one(byImportKey.get(key));
    },
    async setLineageStatus(initid, status, modifiedAt) {
      db.update(elements).set({ status }).where(eq(elements.initid, initid)).run();
      // Fixed revisions are snapshots: only the live one records when the lineage moved.
      const live = one(latest.get(initid));
      if (live) db.update(elements).set({ modifiedAt }).where(eq(elements.id, live.id)).run();
    },
    async list(query) {
      if (query.structures?.length === 0) return [];
      const key = JSON.stringify([query.orderBy, query.structures?.length, query.limit]);
      let statement = lists.get(key);
      if (!statement) {
        // Orders and slices come from requests: bound the cache rather than keep every combination ever asked.
        if (lists.size >= 200) lists.clear();
        statement = prepareList(client, listStatementSql(db, query));
        lists.set(key, statement);
      }
      return statement.all(query).map(toRevision);
    },
    async appendHistory(entry) {
      insertHistory.run(entry);
    },
    async history(initid) {
      return historyOf.all({ initid }).map(({ id: _sequence, ...entry }) => entry);
    },
  };
}

/** The columns of `elements` as SQLite gives them, in COLUMNS order. */
type ElementRow = [
  id: number, initid: number, revision: number, structure: string, name: string | null, title: string, owner: number,
  status: LineageStatus, fixed: number, state: string | null, values: string, createdAt: string, modifiedAt: string, importKey: string | null,
];

/**
 * A statement answering rows as arrays: better-sqlite3 builds a row object property by property,
 * through V8's slow path, which costs a list of ten more than SQLite's own work.
 */
function rows(statement: Statement): Statement<unknown[], ElementRow> {
  return statement.raw(true) as Statement<unknown[], ElementRow>;
}

/**
 * A batch read: one key, the common case (a request naming one element), takes the plain
 * statement, since json_each costs more; more keys go as one JSON array to `many`.
 */
function batch(one: Statement<unknown[], ElementRow>, many: Statement<unknown[], ElementRow>) {
  return async (keys: readonly (number | string)[]): Promise<ElementRevision[]> => {
    if (keys.length === 0) return [];
    return (keys.length === 1 ? one.all(keys[0]) : many.all(JSON.stringify(keys))).map(toRevision);
  };
}

/** A stored row as a revision. */
function toRevision(row: ElementRow): ElementRevision {
  return {
    id: row[0], initid: row[1], revision: row[2], structure: row[3], name: row[4], title: row[5], owner: row[6], status: row[7],
    fixed: row[8] !== 0, state: row[9], values: JSON.parse(row[10]) as ElementValues, createdAt: row[11], modifiedAt: row[12], importKey: row[13],
  };
}

interface ListStatement {
  all(query: ElementQuery): ElementRow[];
}

/** The list query's SQL and parameters (placeholders `status`, `offset`, `s0..sN`, and constants), its limit written out. */
function prepareList(client: Database, { sql: text, params }: { sql: string; params: unknown[] }): ListStatement {
  const statement = rows(client.prepare(text));
  const binders = params.map((param): ((query: ElementQuery) => unknown) => {
    if (!(param instanceof Placeholder)) return () => param;
    const { name } = param;
    if (name === "status") return (q) => q.status;
    if (name === "offset") return (q) => q.offset;
    const index = Number(name.slice(1));
    return (q) => q.structures?.[index];
  });
  return { all: (query) => statement.all(...binders.map((bind) => bind(query))) };
}

/**
 * The SQL of a list query, with placeholders `status`, `offset` and `s0..sN` (one per
 * structure), and its limit written out (see createElementRepository); exported so tests
 * can check its query plan.
 */
export function listStatementSql(db: BetterSQLite3Database, query: Pick<ElementQuery, "orderBy" | "structures" | "limit">): { sql: string; params: unknown[] } {
  const limit = query.limit ?? -1;
  if (!Number.isSafeInteger(limit)) throw new RangeError(`A list limit must be a whole number, not ${limit}`);
  const { sql: text, params } = listQuery(db, query).toSQL();
  return { sql: `${text} limit ${limit} offset ?`, params: [...params, sql.placeholder("offset")] };
}

/** The list query without its limit and offset: what drizzle builds of the order and the filters. */
function listQuery(db: BetterSQLite3Database, query: Pick<ElementQuery, "orderBy" | "structures">) {
  const where = [eq(elements.status, sql.placeholder("status")), eq(elements.fixed, false)];
  if (query.structures) {
    where.push(inArray(elements.structure, query.structures.map((_, i) => sql.placeholder(`s${i}`))));
  }
  return db.select().from(elements).where(and(...where)).orderBy(...closeWithId(query.orderBy).map(orderExpression));
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
