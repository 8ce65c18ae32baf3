import { inject } from "vitest";
import { testDatabases } from "@lineage/postgres-server";

const databases = testDatabases(inject("postgresUrl"), inject("postgresTemplate"));

/** The URL of a new, migrated, empty database on the test run's PostgreSQL server. */
export function freshDatabase(): Promise<string> {
  return databases.fresh();
}
