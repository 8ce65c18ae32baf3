import { createHash } from "node:crypto";
import type { Clock, Vault, VaultFile } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";
import { NO_LOCKS, vaultKey, type TransactionLocks } from "./transaction-locks.ts";

const COLUMNS = "id, sha256, name, mime, size, created_at";
const BY_ID = statement(`select ${COLUMNS} from vault_files where id = $1`);
const BY_IDS = statement(`select ${COLUMNS} from vault_files where id = any($1::int[])`);
const BY_CONTENT = statement(`select ${COLUMNS} from vault_files where sha256 = $1 and name = $2`);
const STORE_BLOB = statement("insert into vault_blobs (sha256, content) values ($1, $2) on conflict (sha256) do nothing");
const INSERT_FILE = statement(`insert into vault_files (sha256, name, mime, size, created_at) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`);
const CONTENT = statement("select b.content from vault_files f join vault_blobs b on b.sha256 = f.sha256 where f.id = $1");

/**
 * Files stored by content in PostgreSQL (vault_blobs, one row per distinct content) with their
 * metadata in vault_files: a file uploaded through one node is served by every other, and a
 * rolled back upload leaves nothing behind.
 */
export function createVault(sql: SqlClient, clock: Clock, locks: TransactionLocks = NO_LOCKS): Vault {
  return {
    async store(content, meta) {
      const sha256 = createHash("sha256").update(content).digest("hex");
      // Locked first: two transactions storing one content under one name find or insert one row.
      await locks.take([vaultKey(sha256, meta.name)]);
      const [existing] = await sql.rows(BY_CONTENT, [sha256, meta.name]);
      if (existing) return toFile(existing);
      // A copy: the caller may change its buffer once this returns.
      await sql.run(STORE_BLOB, [sha256, Buffer.from(content)]);
      const [row] = await sql.rows(INSERT_FILE, [sha256, meta.name, meta.mime, content.byteLength, clock.now().toISOString()]);
      return toFile(row!);
    },
    async file(id) {
      const [row] = await sql.rows(BY_ID, [id]);
      return row && toFile(row);
    },
    async files(ids) {
      return ids.length === 0 ? [] : (await sql.rows(BY_IDS, [ids])).map(toFile);
    },
    async read(id) {
      const [row] = await sql.rows(CONTENT, [id]);
      return row && new Uint8Array(row[0] as Buffer);
    },
  };
}

function toFile(row: unknown[]): VaultFile {
  return {
    id: row[0] as number, sha256: row[1] as string, name: row[2] as string, mime: row[3] as string, size: row[4] as number,
    createdAt: row[5] as string,
  };
}
