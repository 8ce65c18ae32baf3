import { readableForm, readableKeys } from "@lineage/core";
import type { ElementRepository, ElementRevision, ElementValues, HistoryEntry, LineageStatus, NewRevision } from "@lineage/core";
import { countSql } from "./count-statement.ts";
import { groupedPage, type GroupedPage } from "./grouped-page.ts";
import { COLUMNS, listStatement, type ListStatement } from "./list-statement.ts";
import { statement, type SqlClient, type Statement } from "./sql-client.ts";
import { readableCondition } from "./readable-condition.ts";
import { storableText } from "./storable-text.ts";
import { ALL_ELEMENT_KEYS, importKey, lineageKey, lockedRead, nameKey, NO_LOCKS, type TransactionLocks } from "./transaction-locks.ts";

/** The live revision of a lineage when there is one, else its highest (as the fake picks it). */
const LATEST_ORDER = "order by fixed asc, revision desc, id desc limit 1";
/** The live revision of a name, a lineage out of the trash first. */
const LATEST_BY_NAME = "fixed = false order by status = 'alive' desc, revision desc, id desc limit 1";

const read = (where: string) => statement(`select ${COLUMNS} from elements where ${where}`);
const BY_ID = read("id = $1");
const BY_IDS = read("id = any($1::int[])");
const LATEST = read(`initid = $1 ${LATEST_ORDER}`);
const LATEST_MANY = read(`id in (select (select e.id from elements e where e.initid = k ${LATEST_ORDER}) from unnest($1::int[]) as k)`);
const LATEST_BY_NAME_ONE = read(`name = $1 and ${LATEST_BY_NAME}`);
const LATEST_BY_NAMES = read(`id in (select (select e.id from elements e where e.name = k and e.${LATEST_BY_NAME}) from unnest($1::text[]) as k)`);
const REVISIONS = read("initid = $1 order by revision desc, id desc");
const BY_IMPORT_KEY = read(`import_key = $1 ${LATEST_ORDER}`);
const OWNED_BY = statement("select count(distinct initid)::int from elements where owner = $1");
const BY_STRUCTURE = statement("select structure, count(*)::int from elements where status = $1 and not fixed group by structure");
const READABLE_BY_STRUCTURE = statement(
  `select structure, count(*)::int from elements where status = $1 and not fixed and ${readableCondition("$2", true)} group by structure`,
);
// One seek per profile on the index of the revisions under a profile of their own (schema.ts).
const PROFILES_IN_USE = statement("select wanted from unnest($1::text[]) as wanted where exists (select from elements where profile = wanted and not fixed)");
// A seek or two per structure on the index of one structure's owner order (list-indexes.ts).
const STRUCTURES_OWNED = statement(
  `select wanted from unnest($1::text[]) as wanted where exists
   (select from elements where status in ('alive', 'deleted') and structure collate "C" = wanted and owner = $2 and not fixed)`,
);
// A new lineage's initid is its first revision's id: taken from the sequence first, so one statement does.
const INSERT = statement(
  `insert into elements (id, initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key,
   own_profile, profile)
   select n, coalesce($1::int, n), $2, $3, (select id from structures where name = $3), $4, $5, $6, $7, $8, $9, $10::json, $11, $12, $13, $14, $15
   from (select nextval(pg_get_serial_sequence('elements', 'id'))::int as n) as next_id
   returning id`,
);
// Sent with the transaction's next statement (sql-client.ts, `defer`): a revision that is not there
// fails it all the same, by a division by zero (no revision saved, count 0).
const SAVE = statement(
  `with saved as (update elements set initid = $2, revision = $3, structure = $4, structure_id = (select id from structures where name = $4), name = $5,
   title = $6, owner = $7, status = $8, fixed = $9, state = $10, "values" = $11::json, created_at = $12, modified_at = $13, import_key = $14,
   own_profile = $15, profile = $16 where id = $1 returning id)
   select 1 / count(*) from saved`,
);
// Fixed revisions are snapshots: only the live one records when the lineage moved.
const SET_STATUS = statement(
  `update elements set status = $2,
   modified_at = case when id = (select e.id from elements e where e.initid = $1 ${LATEST_ORDER}) then $3 else modified_at end
   where initid = $1`,
);
const APPEND_HISTORY = statement(
  `insert into history (initid, revision_id, revision, account_id, account_name, date, level, code, comment)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
);
const HISTORY = statement(
  `select initid, revision_id, revision, account_id, account_name, date, level, code, comment from history
   where initid = $1 order by revision desc, date collate "C" desc, id desc`,
);

/**
 * Element revisions and their history in PostgreSQL. Writes expect a transaction's SqlClient (the
 * store runs them in one), with its `locks`: in a transaction, a read of a lineage (by initid, id,
 * name or import key) locks its key first, and a look-up of a name or import key locks that key, so
 * that two transactions that read then change one lineage, or look a name up then insert it, take
 * turns, while writers of other lineages go on.
 */
export function createElementRepository(client: SqlClient, locks: TransactionLocks = NO_LOCKS): ElementRepository {
  const all = async (s: Statement, values: readonly unknown[]) => (await client.rows(s, values)).map(toRevision);
  const one = async (s: Statement, key: unknown) => {
    const [row] = await client.rows(s, [key]);
    return row && toRevision(row);
  };
  const initidsOf = (revisions: readonly (ElementRevision | undefined)[]) => revisions.flatMap((r) => (r ? [lineageKey(r.initid)] : []));
  const lists = new Map<string, { whole: ListStatement; grouped: GroupedPage | undefined }>();
  return {
    async insert(revision) {
      if (revision.initid != null) await locks.take([lineageKey(revision.initid)]);
      const r = columns(revision);
      const [row] = await client.rows(INSERT, [
        revision.initid ?? null, r.revision, r.structure, r.name, r.title, r.owner, r.status, r.fixed, r.state,
        JSON.stringify(r.values), r.createdAt, r.modifiedAt, r.importKey, r.ownProfile, r.profile,
      ]);
      const id = row![0] as number;
      return { ...r, id, initid: revision.initid ?? id };
    },
    async save(revision) {
      await locks.take([lineageKey(revision.initid)]);
      const r = columns(revision);
      await client.defer(SAVE, [
        revision.id, revision.initid, r.revision, r.structure, r.name, r.title, r.owner, r.status, r.fixed, r.state,
        JSON.stringify(r.values), r.createdAt, r.modifiedAt, r.importKey, r.ownProfile, r.profile,
      ]);
    },
    // An id is most often its lineage's initid (a lineage's first revision): locked first on that guess.
    byId: (id) => lockedRead(locks, [lineageKey(id)], () => one(BY_ID, id), (r) => initidsOf([r])),
    async byIds(ids) {
      return ids.length === 0 ? [] : lockedRead(locks, ids.map(lineageKey), () => all(BY_IDS, [ids]), initidsOf);
    },
    latestByName: async (name) =>
      storableText(name) ? lockedRead(locks, [nameKey(name)], () => one(LATEST_BY_NAME_ONE, name), (r) => initidsOf([r])) : undefined,
    async latestByNames(names) {
      const storable = names.filter(storableText);
      return storable.length === 0 ? [] : lockedRead(locks, storable.map(nameKey), () => all(LATEST_BY_NAMES, [storable]), initidsOf);
    },
    latest: (initid) => lockedRead(locks, [lineageKey(initid)], () => one(LATEST, initid), () => []),
    async latestMany(initids) {
      return initids.length === 0 ? [] : lockedRead(locks, initids.map(lineageKey), () => all(LATEST_MANY, [initids]), () => []);
    },
    revisions: (initid) => all(REVISIONS, [initid]),
    byImportKey: async (key) =>
      storableText(key) ? lockedRead(locks, [importKey(key)], () => one(BY_IMPORT_KEY, key), (r) => initidsOf([r])) : undefined,
    async countOwnedBy(accountId) {
      const [row] = await client.rows(OWNED_BY, [accountId]);
      return row?.[0] as number;
    },
    async countByStructure(status, readable) {
      const rows = readable ? await client.rows(READABLE_BY_STRUCTURE, [status, readableKeys(readable)]) : await client.rows(BY_STRUCTURE, [status]);
      return Object.fromEntries(rows as [string, number][]);
    },
    async profilesInUse(profiles) {
      return profiles.length === 0 ? [] : (await client.rows(PROFILES_IN_USE, [profiles])).map((row) => row[0] as string);
    },
    async structuresOwned(owner, structures) {
      return structures.length === 0 ? [] : (await client.rows(STRUCTURES_OWNED, [structures, owner])).map((row) => row[0] as string);
    },
    async setLineageStatus(initid, status, modifiedAt) {
      await locks.take([lineageKey(initid)]);
      await client.run(SET_STATUS, [initid, status, modifiedAt]);
    },
    async list(query) {
      if (query.structures?.length === 0) return [];
      // The structures and rights are parameters (list-statement.ts): their count, and the rights' presence and form, are all
      // that shape the statement.
      // A filter's statement is its own (its values written in it as parameters, filter-sql.ts): made for the query, not kept.
      const key = JSON.stringify([query.orderBy, query.structures?.length, readableForm(query.readable)]);
      let list = query.filter ? { whole: listStatement(query), grouped: groupedPage(query) } : lists.get(key);
      if (!list) {
        // Orders come from requests: bound the cache rather than keep every combination ever asked.
        if (lists.size >= 200) lists.clear();
        list = { whole: listStatement(query), grouped: groupedPage(query) };
        lists.set(key, list);
      }
      const { whole, grouped } = list;
      if (grouped) {
        // Group by group, then the rows, in one snapshot.
        const page = await client.snapshot(async (sql) => {
          const ids = await grouped.ids(sql, query);
          if (ids === undefined) return undefined;
          const found = new Map((ids.length ? await sql.rows(BY_IDS, [ids]) : []).map((row) => [row[0] as number, toRevision(row)]));
          return ids.map((id) => found.get(id)!);
        });
        if (page) return page;
      }
      return all(whole.statement, whole.bind(query));
    },
    async count(query) {
      if (query.structures?.length === 0) return 0;
      const { text, values } = countSql(query);
      const [row] = await client.rows(statement(text, { unnamed: true }), values);
      return row![0] as number;
    },
    // A bundle import: every element key at once, in order, rather than one by one over minutes, each
    // a chance to wait in a circle with a concurrent writer (PostgreSQL would then stop one of them).
    async bulkWrite(_rows, write) {
      await locks.take(ALL_ELEMENT_KEYS);
      return write();
    },
    // Nothing to answer: in a transaction, sent with its next statement (sql-client.ts, `defer`).
    async appendHistory(e) {
      await client.defer(APPEND_HISTORY, [e.initid, e.revisionId, e.revision, e.accountId, e.accountName, e.date, e.level, e.code, e.comment]);
    },
    async history(initid) {
      return (await client.rows(HISTORY, [initid])).map((row): HistoryEntry => ({
        initid: row[0] as number, revisionId: row[1] as number, revision: row[2] as number, accountId: row[3] as number,
        accountName: row[4] as string, date: row[5] as string, level: row[6] as HistoryEntry["level"], code: row[7] as HistoryEntry["code"],
        comment: row[8] as string,
      }));
    },
  };
}

/** A stored row as a revision (node-postgres has parsed the json column). */
function toRevision(row: unknown[]): ElementRevision {
  return {
    id: row[0] as number, initid: row[1] as number, revision: row[2] as number, structure: row[3] as string, name: row[4] as string | null,
    title: row[5] as string, owner: row[6] as number, status: row[7] as LineageStatus, fixed: row[8] as boolean, state: row[9] as string | null,
    values: row[10] as ElementValues, createdAt: row[11] as string, modifiedAt: row[12] as string, importKey: row[13] as string | null,
    ownProfile: row[14] as string | null, profile: row[15] as string | null,
  };
}

/** Picks the stored columns only: callers may pass richer objects than a revision. */
function columns(r: NewRevision): Omit<ElementRevision, "id" | "initid"> {
  return {
    revision: r.revision, structure: r.structure, name: r.name, title: r.title, owner: r.owner, status: r.status,
    fixed: r.fixed, state: r.state, values: r.values, createdAt: r.createdAt, modifiedAt: r.modifiedAt, importKey: r.importKey,
    ownProfile: r.ownProfile, profile: r.profile,
  };
}
