import { sql } from "drizzle-orm";
import {
  bigint, boolean, check, customType, index, integer, json, numeric, pgSequence, pgTable, primaryKey, smallint, text, unique,
} from "drizzle-orm/pg-core";
import type {
  ElementValues, Enumerate, EventType, NewEvent, FieldAccess, Group, HistoryEntry, HttpRight, Lifecycle, LineageStatus, Profile, Role, SearchDomain,
  StructureDefinition, TokenRoute,
} from "@lineage/core";
import { listIndexes, type KeyedProperty } from "./list-indexes.ts";

const STATUSES = ["alive", "deleted"] as const satisfies readonly LineageStatus[];

/** The schema's property of each keyed column (list-indexes.ts). */
const KEYED_COLUMNS = {
  title: "title", name: "name", revision: "revision", owner: "owner", state: "state",
  cdate: "createdAt", mdate: "modifiedAt", fromid: "structureId",
} as const satisfies Record<KeyedProperty, string>;

/** Binary content (`bytea`), read and written as Node buffers. */
const bytea = customType<{ data: Uint8Array; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * One row per revision; a lineage is the rows sharing an initid. Texts sort by code point
 * (`collate "C"`, as SQLite and the API sort them), so every ordered index names that collation.
 * Values are `json`, not `jsonb`: it keeps the text as written (key order, \u0000), as SQLite does.
 */
export const elements = pgTable(
  "elements",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    initid: integer("initid").notNull(),
    revision: integer("revision").notNull(),
    structure: text("structure").notNull(),
    /** The structure's id (the `fromid` order), set from `structures` as a revision is written. */
    structureId: integer("structure_id"),
    name: text("name"),
    title: text("title").notNull(),
    owner: integer("owner").notNull(),
    status: text("status", { enum: STATUSES }).notNull(),
    fixed: boolean("fixed").notNull(),
    state: text("state"),
    values: json("values").$type<ElementValues>().notNull(),
    createdAt: text("created_at").notNull(),
    modifiedAt: text("modified_at").notNull(),
    importKey: text("import_key"),
    /** The element's own profile, and the profile rights are decided by when not the structure's (ElementRevision). */
    ownProfile: text("own_profile"),
    profile: text("profile"),
  },
  (t) => [
    // Every list order reads a page from one of these in order, and stops at the limit (list-indexes.ts).
    ...listIndexes(t, (key) => t[KEYED_COLUMNS[key]]),
    index("elements_initid_idx").on(t.initid, t.revision),
    index("elements_name_idx").on(t.name, t.fixed),
    index("elements_import_key_idx").on(t.importKey),
    // The live revisions under a profile of their own or their state's, few: which profiles are in use (profilesInUse).
    index("elements_profile_idx").on(t.profile).where(sql`not fixed and profile is not null`),
  ],
);

export const history = pgTable(
  "history",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    initid: integer("initid").notNull(),
    revisionId: integer("revision_id").notNull(),
    revision: integer("revision").notNull(),
    accountId: integer("account_id").notNull(),
    accountName: text("account_name").notNull(),
    date: text("date").notNull(),
    level: text("level").$type<HistoryEntry["level"]>().notNull(),
    code: text("code").$type<HistoryEntry["code"]>(),
    comment: text("comment").notNull(),
  },
  (t) => [index("history_initid_idx").on(t.initid, t.revision, t.date)],
);

export const structures = pgTable("structures", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull().unique(),
  definition: json("definition").$type<StructureDefinition>().notNull(),
  /** The fields whose sort keys element_sort_keys keeps (core's indexedOrderFields), read by the trigger that keeps them. */
  sortFields: text("sort_fields").array().notNull().default(sql`'{}'::text[]`),
});

/**
 * The sort key of each indexed field (core's indexedOrderFields) of each live revision, kept by a
 * trigger on `elements` (migration 0004) and made and dropped with the structure's fields: a
 * structure's field orders walk these indexes, which hold all a page needs (an index on an
 * expression over `values` could give the order, but PostgreSQL reads the row of every entry it
 * walks, the skipped ones included). A key sorts as the API orders JSON values: null or missing
 * (rank 0), then numbers and booleans by value (rank 1), then texts by code point (rank 2).
 */
export const elementSortKeys = pgTable(
  "element_sort_keys",
  {
    elementId: integer("element_id").notNull(),
    structure: text("structure").notNull(),
    field: text("field").notNull(),
    status: text("status", { enum: STATUSES }).notNull(),
    rank: smallint("rank").notNull(),
    num: numeric("num"),
    txt: text("txt"),
    /** The element's profile and owner (elements.profile, .owner), so that a field order filters rights on the index entries. */
    profile: text("profile"),
    owner: integer("owner"),
    /** The element's state (elements.state), so that a field order tests a condition on the state on the index entries. */
    state: text("state"),
  },
  (t) => [
    // Migration 0008 makes it hold the key, structure, status and profile too (INCLUDE, which the schema cannot say): a
    // filter tests an element's field on it alone (filter-sql.ts); and gives the planner statistics of the values.
    primaryKey({ columns: [t.elementId, t.field] }),
    index("element_sort_keys_idx").on(sql`${t.structure} collate "C"`, t.field, t.status, t.rank, t.num, sql`${t.txt} collate "C"`, sql`${t.elementId} desc`,
      t.profile, t.owner, sql`${t.state} collate "C"`),
    index("element_sort_keys_desc_idx").on(sql`${t.structure} collate "C"`, t.field, t.status, sql`${t.rank} desc`, sql`${t.num} desc`,
      sql`${t.txt} collate "C" desc`, sql`${t.elementId} desc`, t.profile, t.owner, sql`${t.state} collate "C"`),
    // A field order of one state's elements (migration 0019): one range of these, in order.
    index("element_sort_keys_state_idx").on(sql`${t.structure} collate "C"`, t.field, t.status, sql`${t.state} collate "C"`, t.rank, t.num,
      sql`${t.txt} collate "C"`, sql`${t.elementId} desc`, t.profile, t.owner),
    index("element_sort_keys_state_desc_idx").on(sql`${t.structure} collate "C"`, t.field, t.status, sql`${t.state} collate "C"`, sql`${t.rank} desc`,
      sql`${t.num} desc`, sql`${t.txt} collate "C" desc`, sql`${t.elementId} desc`, t.profile, t.owner),
  ],
);

export const enumerates = pgTable("enumerates", {
  name: text("name").primaryKey(),
  definition: json("definition").$type<Enumerate>().notNull(),
});

export const lifecycles = pgTable("lifecycles", {
  name: text("name").primaryKey(),
  definition: json("definition").$type<Lifecycle>().notNull(),
});

export const profiles = pgTable("profiles", {
  name: text("name").primaryKey(),
  definition: json("definition").$type<Profile>().notNull(),
});

export const fieldAccesses = pgTable("field_accesses", {
  name: text("name").primaryKey(),
  definition: json("definition").$type<FieldAccess>().notNull(),
});

export const accounts = pgTable("accounts", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  login: text("login").notNull().unique(),
  displayName: text("display_name").notNull(),
  passwordHash: text("password_hash"),
  roles: json("roles").$type<readonly string[]>().notNull(),
  groups: json("groups").$type<readonly string[]>().notNull(),
  locale: text("locale").notNull(),
  rights: json("rights").$type<readonly HttpRight[]>().notNull(),
  disabled: boolean("disabled").notNull().default(false),
});

/** Roles and groups keep the order they were first saved in: `seq`, kept by an upsert. */
export const roles = pgTable("roles", {
  seq: integer("seq").generatedAlwaysAsIdentity().notNull(),
  id: text("id").primaryKey(),
  label: json("label").$type<NonNullable<Role["label"]>>(),
});

export const groups = pgTable("groups", {
  seq: integer("seq").generatedAlwaysAsIdentity().notNull(),
  id: text("id").primaryKey(),
  label: json("label").$type<NonNullable<Group["label"]>>(),
  roles: json("roles").$type<readonly string[]>().notNull(),
});

/**
 * Folder memberships (core's FolderRepository): one row per folder and element, both by initid.
 * The primary key answers a folder's members in order, the index an element's folders.
 */
export const folderMembers = pgTable(
  "folder_members",
  {
    folderId: integer("folder_id").notNull(),
    elementId: integer("element_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.elementId] }), index("folder_members_element_idx").on(t.elementId, t.folderId)],
);

/** Locks on lineages (core's LockRepository): one row per locked lineage, by initid. */
export const elementLocks = pgTable("element_locks", {
  initid: integer("initid").primaryKey(),
  accountId: integer("account_id").notNull(),
  temporary: boolean("temporary").notNull(),
  lockedAt: text("locked_at").notNull(),
});

/** Metadata of vault files; the content is in vault_blobs under its sha256, shared by every node. */
export const vaultFiles = pgTable(
  "vault_files",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    sha256: text("sha256").notNull(),
    name: text("name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [unique("vault_files_sha256_name_unique").on(t.sha256, t.name)],
);

/** File contents by SHA-256: one row per distinct content, whatever the names it is stored under. */
export const vaultBlobs = pgTable("vault_blobs", {
  sha256: text("sha256").primaryKey(),
  content: bytea("content").notNull(),
});

/** The dashboards bundles registered: the platform's slug, the uuid on the dashboard server, the roles that may view it. */
export const dashboards = pgTable("dashboards", {
  slug: text("slug").primaryKey(),
  uuid: text("uuid").notNull(),
  roles: json("roles").$type<readonly string[]>().notNull(),
});

/** Login sessions; `id` is the SHA-256 of the cookie value, never the value. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    csrfToken: text("csrf_token").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    absoluteExpiresAt: text("absolute_expires_at").notNull(),
  },
  (t) => [index("sessions_account_idx").on(t.accountId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Access tokens; `hash` is the SHA-256 of the token, never the token. */
export const accessTokens = pgTable(
  "access_tokens",
  {
    seq: integer("seq").generatedAlwaysAsIdentity().notNull(),
    id: text("id").primaryKey(),
    hash: text("hash").notNull().unique(),
    accountId: integer("account_id").notNull(),
    routes: json("routes").$type<readonly TokenRoute[]>().notNull(),
    expiresAt: text("expires_at"),
    oneshot: boolean("oneshot").notNull(),
    description: text("description").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("access_tokens_expires_idx").on(t.expiresAt)],
);

/** Full-text search domains, as bundles declare them; `generation` counts full rebuilds, so other nodes reload. */
export const searchDomains = pgTable("search_domains", {
  name: text("name").primaryKey(),
  definition: json("definition").$type<SearchDomain>().notNull(),
  generation: integer("generation").notNull().default(0),
});

/** The event log's numbers before lineageSeq took over; no longer used. */
export const eventSeq = pgSequence("event_seq");

/** The event log: one row per event (see eventSeq); `body` is the event without its seq, the other columns what reads filter on. */
export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    time: text("time").notNull(),
    type: text("type").$type<EventType>().notNull(),
    initid: integer("initid").notNull(),
    structure: text("structure").notNull(),
    body: json("body").$type<NewEvent>().notNull(),
  },
  (t) => [index("events_structure_idx").on(t.structure, t.seq), index("events_initid_idx").on(t.initid, t.seq)],
);

/** Where pruning stopped: one row (absent until the first prune), the last seq it removed. */
export const eventsPruned = pgTable(
  "events_pruned",
  {
    id: integer("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).notNull(),
  },
  (t) => [check("events_pruned_one_row", sql`${t.id} = 1`)],
);

/**
 * The definitions counter, in one row: it moves with the commits of definitions only (the stamp
 * core's definition and principal caches are keyed by); a writer of definitions locks the row until
 * it commits. `data` moved with every commit while every write transaction locked the row; the
 * change clock is the horizon's now (lineageSeq), and `data` is no longer used.
 */
export const lineageClock = pgTable(
  "lineage_clock",
  {
    id: integer("id").primaryKey(),
    data: bigint("data", { mode: "number" }).notNull(),
    definitions: bigint("definitions", { mode: "number" }).notNull(),
  },
  (t) => [check("lineage_clock_one_row", sql`${t.id} = 1`)],
);

/**
 * The numbers of the change clock and the event log, given by nextval
 * without any lock: a reader reads only up to the horizon (change-horizon.ts), the highest number
 * below which no transaction still running can commit one, so numbers come in commit order for
 * every reader, and a reader that read up to N never meets a smaller number later.
 */
export const lineageSeq = pgSequence("lineage_seq");

/**
 * The change clock's commits: one row per database connection (its backend's pid), the number
 * of the last transaction committed on it (write-transactions.ts). The clock's stamp is the horizon
 * and the numbers above it (change-clocks.ts).
 */
export const lineageCommits = pgTable("lineage_commits", {
  slot: integer("slot").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
});

/**
 * Failed logins and token uses counted by the login throttle, per key (a login, a client), shared
 * by every node so that an attacker alternating between nodes is counted once (throttle-store.ts).
 */
export const loginFailures = pgTable(
  "login_failures",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull(),
    lastFailureAt: bigint("last_failure_at", { mode: "number" }).notNull(),
  },
  (t) => [index("login_failures_last_idx").on(t.lastFailureAt)],
);
export * from "./schema-webhooks.ts";
