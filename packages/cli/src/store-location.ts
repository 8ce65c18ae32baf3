import { Option, type Command } from "commander";
import { openPostgresStore, type PostgresStore } from "@lineage/adapter-postgres";
import type { HttpAuthOptions } from "@lineage/adapter-http";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import type { Store } from "@lineage/core";

/**
 * Where a command finds its data: the data directory, and the PostgreSQL database when one is
 * named. With a database, the directory keeps only what belongs to one node (the image variant
 * cache, the search snapshots); without, it holds the SQLite database and the vault too.
 */
export interface StoreLocation {
  readonly dataDir: string;
  /** `postgres://…`; `--database`, else the environment's LINEAGE_DATABASE_URL. */
  readonly databaseUrl?: string | undefined;
}

/** The flags of every command that opens the store, as `storeLocationOf` reads them. */
export interface StoreFlags {
  readonly data?: string | undefined;
  readonly database?: string | undefined;
}

/** Adds `--data DIR` and `--database URL` to a command, with their help. */
export function withStoreOptions(command: Command): Command {
  return command
    .addOption(new Option("--data <dir>", "the data directory: the SQLite database and the vault, or only this node's caches with --database").default("./data"))
    .addOption(new Option("--database <url>", "a PostgreSQL database (postgres://…) holding the data instead of SQLite in --data")
      .env("LINEAGE_DATABASE_URL").default(undefined, "none: SQLite in --data"));
}

/** The location the flags name, LINEAGE_DATABASE_URL standing in for a missing --database. */
export function storeLocationOf(flags: StoreFlags): StoreLocation {
  const databaseUrl = flags.database ?? (process.env.LINEAGE_DATABASE_URL || undefined);
  return { dataDir: flags.data ?? "./data", ...(databaseUrl ? { databaseUrl } : {}) };
}

/**
 * Opens the store of the location: PostgreSQL when a database is named (LINEAGE_DATABASE_CHANGES=notify
 * learns of other nodes' commits by notifications, docs/deployment.md), else SQLite in the data directory.
 */
export function openStore(location: StoreLocation, synchronous?: "full" | "normal"): Promise<Store> | Store {
  if (location.databaseUrl) {
    const changes = process.env.LINEAGE_DATABASE_CHANGES || undefined;
    if (changes !== undefined && changes !== "poll" && changes !== "notify") {
      throw new Error(`LINEAGE_DATABASE_CHANGES takes poll or notify, not "${changes}"`);
    }
    return openPostgresStore({ url: location.databaseUrl, ...(changes ? { changes } : {}) });
  }
  return openSqliteStore({ dataDir: location.dataDir, ...(synchronous ? { synchronous } : {}) });
}

/**
 * On PostgreSQL, the login throttle counts in the database, so that nodes count together (unless
 * the options bring a throttle of their own); on SQLite, each process counts in its memory.
 */
export function withSharedThrottle(store: Store, auth: HttpAuthOptions | undefined): HttpAuthOptions | undefined {
  if (!("throttleStore" in store)) return auth;
  const throttle = auth?.throttle;
  if (throttle && "admit" in throttle) return auth;
  const shared = (store as PostgresStore).throttleStore(throttle?.windowMs === undefined ? {} : { windowMs: throttle.windowMs });
  return { ...auth, throttle: { ...throttle, store: shared } };
}
