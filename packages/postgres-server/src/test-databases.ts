import { randomBytes } from "node:crypto";
import pg from "pg";

/** Databases for tests on one server: each a copy of a template, so none pays for the migrations again. */
export interface TestDatabases {
  /** A new database copied from the template; its URL. */
  fresh(): Promise<string>;
}

/**
 * Copies `template` (a database on the server of `url`, migrated once by the test run's global
 * set-up) into new databases named `lineage_test_<random>`. The whole server is thrown away at
 * the end of the run, so they are never dropped one by one.
 */
export function testDatabases(url: string, template: string): TestDatabases {
  return {
    async fresh() {
      const name = `lineage_test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create database ${name} template ${template} strategy file_copy`);
      } finally {
        await admin.end();
      }
      const target = new URL(url);
      target.pathname = `/${name}`;
      return target.toString();
    },
  };
}
