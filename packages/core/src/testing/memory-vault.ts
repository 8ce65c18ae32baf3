import { sha256 } from "hash-wasm";
import type { Vault } from "../ports/vault.port.ts";
import type { MemoryContext } from "./memory-context.ts";
import { freeze } from "./memory-tables.ts";

/** The memory store's vault: metadata by id, content by SHA-256, both rolled back with their transaction. */
export function createMemoryVault({ tables, nextId, clock }: MemoryContext): Vault {
  return {
    async store(content, meta) {
      // Copied first, so that a caller reusing its buffer cannot change what is stored.
      const copy = new Uint8Array(content);
      const hash = await sha256(copy);
      const existing = [...tables.files.values()].find((f) => f.sha256 === hash && f.name === meta.name);
      if (existing) return existing;
      if (!tables.blobs.has(hash)) tables.blobs.set(hash, copy);
      const id = nextId("vault");
      const file = freeze({ id, sha256: hash, name: meta.name, mime: meta.mime, size: copy.byteLength, createdAt: clock.now().toISOString() });
      tables.files.set(id, file);
      return file;
    },
    async file(id) {
      return tables.files.get(id);
    },
    async files(ids) {
      const wanted = new Set(ids);
      return [...tables.files.values()].filter((f) => wanted.has(f.id));
    },
    async read(id) {
      const file = tables.files.get(id);
      const blob = file && tables.blobs.get(file.sha256);
      return blob && new Uint8Array(blob);
    },
  };
}
