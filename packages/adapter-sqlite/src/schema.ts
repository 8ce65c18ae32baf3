import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import type {
  ElementValues, Enumerate, FieldAccess, Group, HistoryEntry, HttpRight, Lifecycle, LineageStatus, Profile, Role, StructureDefinition,
} from "@lineage/core";
import { listIndexes, type KeyedProperty } from "./list-indexes.ts";

const STATUSES = ["alive", "deleted"] as const satisfies readonly LineageStatus[];

/** The schema's property of each keyed column (list-indexes.ts). */
const KEYED_COLUMNS = {
  title: "title", name: "name", revision: "revision", owner: "owner", state: "state",
  cdate: "createdAt", mdate: "modifiedAt", fromid: "structureId",
} as const satisfies Record<KeyedProperty, string>;

/** One row per revision; a lineage is the rows sharing an initid. */
export const elements = sqliteTable(
  "elements",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    initid: integer("initid").notNull(),
    revision: integer("revision").notNull(),
    structure: text("structure").notNull(),
    /** The structure's id (the `fromid` order), set from `structures` as a live revision is written. */
    structureId: integer("structure_id"),
    name: text("name"),
    title: text("title").notNull(),
    owner: integer("owner").notNull(),
    status: text("status", { enum: STATUSES }).notNull(),
    fixed: integer("fixed", { mode: "boolean" }).notNull(),
    state: text("state"),
    values: text("values", { mode: "json" }).$type<ElementValues>().notNull(),
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
    index("elements_profile_idx").on(t.profile).where(sql`fixed = 0 and profile is not null`),
  ],
);

export const history = sqliteTable(
  "history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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

export const structures = sqliteTable("structures", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  definition: text("definition", { mode: "json" }).$type<StructureDefinition>().notNull(),
});

export const enumerates = sqliteTable("enumerates", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<Enumerate>().notNull(),
});

export const lifecycles = sqliteTable("lifecycles", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<Lifecycle>().notNull(),
});

export const profiles = sqliteTable("profiles", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<Profile>().notNull(),
});

export const fieldAccesses = sqliteTable("field_accesses", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<FieldAccess>().notNull(),
});

export const accounts = sqliteTable("accounts", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  login: text("login").notNull().unique(),
  displayName: text("display_name").notNull(),
  passwordHash: text("password_hash"),
  roles: text("roles", { mode: "json" }).$type<readonly string[]>().notNull(),
  groups: text("groups", { mode: "json" }).$type<readonly string[]>().notNull(),
  locale: text("locale").notNull(),
  rights: text("rights", { mode: "json" }).$type<readonly HttpRight[]>().notNull(),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
});

export const roles = sqliteTable("roles", {
  id: text("id").primaryKey(),
  label: text("label", { mode: "json" }).$type<NonNullable<Role["label"]>>(),
});

export const groups = sqliteTable("groups", {
  id: text("id").primaryKey(),
  label: text("label", { mode: "json" }).$type<NonNullable<Group["label"]>>(),
  roles: text("roles", { mode: "json" }).$type<readonly string[]>().notNull(),
});

/** Metadata of vault files; the content lives on disk under its sha256. */
export const vaultFiles = sqliteTable(
  "vault_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sha256: text("sha256").notNull(),
    name: text("name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [unique("vault_files_sha256_name_unique").on(t.sha256, t.name)],
);

export * from "./schema-dashboards.ts";
export * from "./schema-folders.ts";
export * from "./schema-locks.ts";
export * from "./schema-auth.ts";
export * from "./schema-search.ts";
export * from "./schema-changes.ts";
export * from "./schema-events.ts";
export * from "./schema-webhooks.ts";
