import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";
import { ensureSortKeys } from "./sort-keys.ts";

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Applies the migrations drizzle-kit generated (../drizzle) that the database lacks, and makes the
 * sort keys of structures saved before them (sort-keys.ts), under a session advisory lock: nodes
 * starting together take turns, and the later ones find the migrations applied. The lock goes with
 * the connection if the process dies meanwhile.
 */
export async function migrateSchema(pool: pg.Pool): Promise<void> {
  const connection = await pool.connect();
  // Checked out, the connection has no listener of the pool's: a server restart now fails the start, not the process.
  const ignore = () => {};
  connection.on("error", ignore);
  try {
    await connection.query("select pg_advisory_lock(hashtext('lineage:migrations'))");
    try {
      await migrate(drizzle({ client: connection }), { migrationsFolder: MIGRATIONS });
      await ensureSortKeys(connection);
    } finally {
      await connection.query("select pg_advisory_unlock(hashtext('lineage:migrations'))");
    }
  } finally {
    connection.removeListener("error", ignore);
    connection.release(true);
  }
}
