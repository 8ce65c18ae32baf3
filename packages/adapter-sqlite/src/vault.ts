import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { Clock, Vault } from "@lineage/core";
import { vaultFiles } from "./schema.ts";

/**
 * Files stored by content under `<dir>/<first 2 hex>/<sha256>`, metadata in vault_files. Content is
 * written before the row, in the transaction's time: a rollback leaves an unreferenced file, which
 * is harmless since the same content reuses it.
 */
export function createVault(db: BetterSQLite3Database, dir: string, clock: Clock): Vault {
  const byId = db.select().from(vaultFiles).where(eq(vaultFiles.id, sql.placeholder("id"))).prepare();
  const byIds = db.select().from(vaultFiles)
    .where(sql`${vaultFiles.id} in (select value from json_each(${sql.placeholder("ids")}))`).prepare();
  const byContent = db.select().from(vaultFiles)
    .where(and(eq(vaultFiles.sha256, sql.placeholder("sha256")), eq(vaultFiles.name, sql.placeholder("name")))).prepare();
  const pathOf = (sha256: string) => join(dir, sha256.slice(0, 2), sha256);

  return {
    async store(content, meta) {
      const sha256 = createHash("sha256").update(content).digest("hex");
      const key = { sha256, name: meta.name };
      const existing = byContent.get(key);
      if (existing) return existing;
      writeOnce(pathOf(sha256), content);
      return db.insert(vaultFiles).values({
        ...key, mime: meta.mime, size: content.byteLength, createdAt: clock.now().toISOString(),
      }).returning().get();
    },
    async file(id) {
      return byId.get({ id });
    },
    async files(ids) {
      return ids.length === 0 ? [] : byIds.all({ ids: JSON.stringify(ids) });
    },
    async read(id) {
      const file = byId.get({ id });
      return file && new Uint8Array(readFileSync(pathOf(file.sha256)));
    },
  };
}

/** Writes content-addressed bytes atomically: readers see the whole file or none, and a present file is already right. */
function writeOnce(path: string, content: Uint8Array): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const fd = openSync(temporary, "wx");
    try {
      for (let written = 0; written < content.byteLength;) {
        written += writeSync(fd, content, written, content.byteLength - written);
      }
      // Flushed before the rename so a crash cannot leave a complete name over incomplete bytes.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
