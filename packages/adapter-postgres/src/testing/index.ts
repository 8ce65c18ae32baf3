/** `@lineage/adapter-postgres/testing`: databases of the test run's PostgreSQL server (vitest, an optional peer dependency). */
export { freshDatabase } from "./fresh-database.ts";

/** What the test run's global set-up (test/global-setup.ts) provides, and freshDatabase reads. */
declare module "vitest" {
  export interface ProvidedContext {
    /** The test run's PostgreSQL server (its main database). */
    postgresUrl: string;
    /** A migrated, empty database on it, to copy for each test (testDatabases). */
    postgresTemplate: string;
  }
}
