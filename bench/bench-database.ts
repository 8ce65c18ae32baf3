import pg from "pg";
import type { PostgresServer } from "@lineage/postgres-server";

/** A fresh database of `postgres` for one tree or run of a benchmark, named after `label`; answers its URL. */
export async function createDatabase(postgres: PostgresServer, label: string): Promise<string> {
  const name = `bench_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}`;
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  return url.toString();
}
