import { desc, eq, sql } from "drizzle-orm";
import type { Database, Statement } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { ElementCountQuery, ElementQuery, ElementRepository, ElementRevision, ElementValues, LineageStatus, NewRevision } from "@lineage/core";
import { readableForm } from "@lineage/core";
import { withoutConstants } from "./constant-filter.ts";
import { countSql, type CountStatement } from "./element-count.ts";
import { registerFilterFunctions } from "./filter-functions.ts";
import { createFilterPlanner, seekLookups } from "./filter-plan.ts";
import { compileFilter } from "./filter-sql.ts";
import { groupedPageSql, prepareGroupedPage, type GroupedPage } from "./grouped-page.ts";
import { listPageSql, walkProbes, type PageStatement } from "./list-statement.ts";
import { ID_INDEX } from "./list-indexes.ts";
import { READABLE_CONDITION, readableKeys } from "./readable-condition.ts";
import { elements, history } from "./schema.ts";
import { seekCountSql, seekPageSql } from "./seek-statements.ts";
import { createStatementCache } from "./statement-cache.ts";

/** The columns of a revision, in the order every read selects them (toRevision maps them). */
const COLUMNS = `id, initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, own_profile, profile`;

/** The structure's id of the revision written, kept in the row for the `fromid` order. */
const STRUCTURE_ID = "(select id from structures where name = @structure)";

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
 * Which of the profiles of a JSON array some live revision is under: one seek per profile on the index of the
 * revisions under a profile of their own (schema.ts); exported so that tests can check its query plan.
 */
export const PROFILES_IN_USE = "select value from json_each(?) as wanted where exists (select 1 from elements where profile = wanted.value and fixed = 0)";

/**
 * Which of the structures of a JSON array some live revision of the owner is of: a seek or two per structure on the
 * index of one structure's owner order (list-indexes.ts); exported so that tests can check its query plan.
 */
export const STRUCTURES_OWNED = "select value from json_each(?) as wanted where exists " +
  "(select 1 from elements where status in ('alive', 'deleted') and structure = wanted.value and owner = ? and fixed = 0)";

/**
 * Element revisions and their history in SQLite, on one connection, reads through cached prepared
 * statements. Reads are prepared on the client with their LIMIT written out: SQLite re-prepares a
 * statement whenever a bound LIMIT is bound again (it plans with the limit's value), and drizzle
 * binds every limit, `.limit(1)` included, so each call would be parsed and planned anew.
 * Batch reads take their keys as one JSON array (`json_each`): one prepared statement serves any
 * number of keys, with no limit on bound variables to chunk around.
 * Writes expect the connection's transaction to be open (the store runs them in one).
 * A filtered list walks its order's index or reads the rows a condition's index finds, whichever
 * costs less (filter-plan.ts); its statements are written per shape of filter, its values bound.
 */
export function createElementRepository(db: BetterSQLite3Database, client: Database): ElementRepository {
  registerFilterFunctions(client);
  const read = (where: string) => rows(client.prepare(`select ${COLUMNS} from elements where ${where}`));
  const byId = read("id = ?");
  const byIds = read(BATCH_READS.byIds);
  const latest = read(`initid = ? ${LATEST_ORDER}`);
  const latestMany = read(BATCH_READS.latestMany);
  const latestByName = read(LATEST_BY_NAME);
  const latestByNames = read(BATCH_READS.latestByNames);
  const revisions = read("initid = ? order by revision desc, id desc");
  const byImportKey = read(`import_key = ? ${LATEST_ORDER}`);
  const ownedBy = client.prepare("select count(distinct initid) from elements where owner = ?").pluck();
  // On the live revisions' index of structures (list-indexes.ts), which holds the profile too: the index alone is read.
  const byStructure = client.prepare("select structure, count(*) from elements where status = ? and fixed = 0 group by structure").raw();
  const readableByStructure = client.prepare(
    `select structure, count(*) from elements indexed by ${ID_INDEX.structure} where status = ? and fixed = 0 and ${READABLE_CONDITION} group by structure`,
  ).raw();
  const inUse = client.prepare(PROFILES_IN_USE).pluck();
  const owned = client.prepare(STRUCTURES_OWNED).pluck();
  const one = (row: ElementRow | undefined) => (row === undefined ? undefined : toRevision(row));
  const historyOf = db.select().from(history).where(eq(history.initid, sql.placeholder("initid")))
    .orderBy(desc(history.revision), desc(history.date), desc(history.id)).prepare();
  const lists = new Map<string, ListStatements>();
  const counts = new Map<string, { readonly statement: Statement; readonly bind: CountStatement["bind"] }>();
  const planner = createFilterPlanner(client);
  const lookups = seekLookups(client);
  const prepared = createStatementCache(client);
  // The walk of a list's order (list-statement.ts, grouped-page.ts).
  const walkedIds = (query: ElementQuery): number[] => {
    // Field orders name their structure in the statement (list-statement.ts); other orders bind it.
    const fieldOrder = query.orderBy.some((term) => term.kind === "field");
    // Several structures are merged from each one's index (list-statement.ts): their count shapes the statement.
    const scope = query.structures === undefined ? "all" : fieldOrder ? query.structures : query.structures.length;
    // A filter's condition is part of the statement (its values are bound; the structure and indexes its probes read named):
    // one statement per shape of filter.
    const filter = query.filter ? compileFilter(query.filter, undefined, walkProbes(query, lookups.hasIndex)).sql : null;
    const key = JSON.stringify([query.orderBy, scope, query.limit, readableForm(query.readable), filter]);
    let statement = lists.get(key);
    if (!statement) {
      // Orders and slices come from requests: bound the cache rather than keep every combination ever asked.
      if (lists.size >= 200) lists.clear();
      const page = listPageSql(query, { hasIndex: lookups.hasIndex });
      const grouped = groupedPageSql(query);
      statement = { ids: client.prepare(page.sql).pluck(), bind: page.bind, grouped: grouped && prepareGroupedPage(client, grouped) };
      lists.set(key, statement);
    }
    return statement.grouped?.ids(query) ?? (statement.ids.all(...statement.bind(query)) as number[]);
  };
  const pageIds = (query: ElementQuery): number[] => {
    const plan = query.filter ? planner.page(query) : { kind: "walk" as const };
    if (plan.kind === "none") return [];
    if (plan.kind === "walk") return walkedIds(query);
    const { sql, params } = seekPageSql(query, plan.seek);
    return prepared(sql).pluck().all(...params) as number[];
  };
  // A count through a seek when its filter has one (filter-plan.ts), else one statement SQLite plans (element-count.ts).
  const countOf = client.transaction((query: ElementCountQuery): number => {
    const plan = query.filter ? planner.count(query) : { kind: "walk" as const };
    if (plan.kind === "none") return 0;
    if (plan.kind === "seek") {
      const { sql, params } = seekCountSql(query, plan.seek);
      return prepared(sql).pluck().get(...params) as number;
    }
    const key = JSON.stringify([query.structures?.length === 1 ? 1 : query.structures ? "many" : "all", readableForm(query.readable), query.countUpTo !== undefined,
      query.filter ? compileFilter(query.filter).sql : null]);
    let statement = counts.get(key);
    if (!statement) {
      if (counts.size >= 200) counts.clear();
      const count = countSql(query);
      statement = { statement: client.prepare(count.sql).pluck(), bind: count.bind };
      counts.set(key, statement);
    }
    return statement.statement.get(...statement.bind(query)) as number;
  });
  // The plan, the page's ids, then their rows, in one read transaction: all see the same commits.
  const readPage = client.transaction((query: ElementQuery) => {
    const ids = pageIds(query);
    if (ids.length === 0) return [];
    const found = new Map((ids.length === 1 ? byId.all(ids[0]) : byIds.all(JSON.stringify(ids))).map((row) => [row[0], row]));
    return ids.map((id) => toRevision(found.get(id)!));
  });
  // Writes on the import path go straight to better-sqlite3: drizzle would build and prepare them anew for every row.
  const insertRow = client.prepare(
    `insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, own_profile, profile)
     values (@initid, @revision, @structure, ${STRUCTURE_ID}, @name, @title, @owner, @status, @fixed, @state, @values, @createdAt, @modifiedAt, @importKey, @ownProfile, @profile)`,
  );
  const setInitid = client.prepare("update elements set initid = id where id = ?");
  // Saved at every PUT and revision: only the columns that changed, each set of them prepared once.
  const storedRow = client.prepare(`select ${STORED_COLUMNS.map(([, column]) => column).join(", ")} from elements where id = ?`).raw(true);
  const updates = new Map<string, Statement>();
  const updateOf = (changed: readonly (typeof STORED_COLUMNS)[number][]): Statement => {
    const key = changed.map(([key]) => key).join(",");
    let update = updates.get(key);
    if (!update) {
      const sets = changed.map(([key, column]) => (key === "structure" ? `${column} = @structure, structure_id = ${STRUCTURE_ID}` : `${column} = @${key}`));
      update = client.prepare(`update elements set ${sets.join(", ")} where id = @id`);
      updates.set(key, update);
    }
    return update;
  };
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
      const before = storedRow.get(revision.id) as unknown[] | undefined;
      if (!before) throw new Error(`No revision ${revision.id} to save`);
      const row: Record<string, unknown> = {
        ...columns(revision), id: revision.id, initid: revision.initid, fixed: revision.fixed ? 1 : 0, values: JSON.stringify(revision.values),
      };
      // SQLite updates every index on a column the statement sets, changed or not: elements have dozens (list-indexes.ts).
      const changed = STORED_COLUMNS.filter(([key], i) => row[key] !== before[i]);
      if (changed.length > 0) updateOf(changed).run(Object.fromEntries([["id", revision.id], ...changed.map(([key]) => [key, row[key]])]));
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
    async countOwnedBy(accountId) {
      return ownedBy.get(accountId) as number;
    },
    async countByStructure(status, readable) {
      const counts = readable ? readableByStructure.all(status, readableKeys(readable)) : byStructure.all(status);
      return Object.fromEntries(counts as [string, number][]);
    },
    async profilesInUse(profiles) {
      return profiles.length === 0 ? [] : (inUse.all(JSON.stringify(profiles)) as string[]);
    },
    async structuresOwned(owner, structures) {
      return structures.length === 0 ? [] : (owned.all(JSON.stringify(structures), owner) as string[]);
    },
    async setLineageStatus(initid, status, modifiedAt) {
      db.update(elements).set({ status }).where(eq(elements.initid, initid)).run();
      // Fixed revisions are snapshots: only the live one records when the lineage moved.
      const live = one(latest.get(initid));
      if (live) db.update(elements).set({ modifiedAt }).where(eq(elements.id, live.id)).run();
    },
    async list(query) {
      const listed = query.structures?.length === 0 ? undefined : withoutFilterConstants(query);
      return listed ? readPage(listed) : [];
    },
    async count(query) {
      const counted = query.structures?.length === 0 ? undefined : withoutFilterConstants(query);
      return counted ? countOf(counted) : 0;
    },
    async appendHistory(entry) {
      insertHistory.run(entry);
    },
    async history(initid) {
      return historyOf.all({ initid }).map(({ id: _sequence, ...entry }) => entry);
    },
  };
}

/** The query with its filter's constant parts left out (constant-filter.ts); undefined when it holds for no element. */
function withoutFilterConstants<T extends ElementCountQuery>(query: T): T | undefined {
  if (!query.filter) return query;
  const filter = withoutConstants(query.filter);
  if (filter === false) return undefined;
  if (filter !== true) return { ...query, filter };
  const { filter: _always, ...unfiltered } = query;
  return unfiltered as T;
}

/** A list order's statements: its page in one statement, and group by group when its first key's values repeat. */
interface ListStatements {
  readonly ids: Statement;
  readonly bind: PageStatement["bind"];
  readonly grouped: GroupedPage | undefined;
}

/** The columns of `elements` as SQLite gives them, in COLUMNS order. */
type ElementRow = [
  id: number, initid: number, revision: number, structure: string, name: string | null, title: string, owner: number,
  status: LineageStatus, fixed: number, state: string | null, values: string, createdAt: string, modifiedAt: string, importKey: string | null,
  ownProfile: string | null, profile: string | null,
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
    ownProfile: row[14], profile: row[15],
  };
}

/** The columns a save may change, by the key of the row it binds, in a fixed order (the updates' statements are cached by the set of them). */
const STORED_COLUMNS = [
  ["initid", "initid"], ["revision", "revision"], ["structure", "structure"], ["name", "name"], ["title", "title"], ["owner", "owner"],
  ["status", "status"], ["fixed", "fixed"], ["state", "state"], ["values", `"values"`], ["createdAt", "created_at"], ["modifiedAt", "modified_at"],
  ["importKey", "import_key"], ["ownProfile", "own_profile"], ["profile", "profile"],
] as const;

/** Picks the stored columns only: callers may pass richer objects than a revision. */
function columns(r: NewRevision): Omit<ElementRevision, "id" | "initid"> {
  return {
    revision: r.revision, structure: r.structure, name: r.name, title: r.title, owner: r.owner, status: r.status,
    fixed: r.fixed, state: r.state, values: r.values, createdAt: r.createdAt, modifiedAt: r.modifiedAt, importKey: r.importKey,
    ownProfile: r.ownProfile, profile: r.profile,
  };
}
