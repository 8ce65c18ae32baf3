import type { RequestScope } from "../scope/request-scope.ts";
import type { IndexedFileStatus } from "../ports/search-index.port.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { DocumentTextExtractor } from "../ports/document-text.port.ts";
import { htmlToText } from "./html-text.ts";

/** The most text kept of one file (characters): the rest is not indexed. */
export const MAX_FILE_TEXT = 1_000_000;

const TEXT_MIMES = /^text\/(plain|markdown|x-markdown|html|csv)\b|^application\/(xhtml\+xml|json)\b/i;
const TEXT_EXTENSIONS = /\.(txt|md|markdown|html?|csv|json)$/i;

/** The text of a vault file and its indexing status: D read, K not a kind of file read (text, HTML, markdown, or a document the extractor reads), or unreadable. */
export interface FileText {
  readonly status: IndexedFileStatus;
  readonly text: string;
}

/**
 * Extracted texts by vault id. Vault files never change under an id, so a
 * text extracted once serves every later reindex; the cache is bounded.
 */
export interface FileTextCache {
  /**
   * The texts of these vault files, read through `scope`: the metadata of
   * those not cached in one batch, then the content of each that is a text
   * (the vault reads contents one by one; the cache makes that once per file).
   */
  texts(scope: RequestScope, vaultIds: Iterable<number>): Promise<ReadonlyMap<number, FileText>>;
  /** Characters held. */
  size(): number;
}

/**
 * A cache of extracted file texts holding at most `maxChars` characters (oldest dropped first).
 * `documents` reads the documents that are not text (PDF, ODT, DOCX), when given.
 */
export function createFileTextCache(maxChars = 16_000_000, documents?: DocumentTextExtractor): FileTextCache {
  const cache = new Map<number, FileText>();
  let size = 0;

  const remember = (vaultId: number, found: FileText) => {
    if (cache.has(vaultId)) return;
    cache.set(vaultId, found);
    size += found.text.length;
    for (const [id, entry] of cache) {
      if (size <= maxChars) break;
      cache.delete(id);
      size -= entry.text.length;
    }
  };

  return {
    async texts(scope, vaultIds) {
      const found = new Map<number, FileText>();
      const missing: number[] = [];
      for (const id of new Set(vaultIds)) {
        const cached = cache.get(id);
        if (cached) found.set(id, cached);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      await scope.load({ vaultFiles: missing });
      // One at a time: a batch of large files is never held in memory at once.
      for (const id of missing) {
        const text = await extract(scope.vaultFile(id), (file) => scope.repos.vault.read(file.id), documents);
        found.set(id, text);
        remember(id, text);
      }
      return found;
    },
    size: () => size,
  };
}

async function extract(
  meta: VaultFile | undefined, read: (file: VaultFile) => Promise<Uint8Array | undefined>, documents: DocumentTextExtractor | undefined,
): Promise<FileText> {
  if (meta && !(TEXT_MIMES.test(meta.mime) || TEXT_EXTENSIONS.test(meta.name)) && documents?.handles(meta)) return extractDocument(meta, read, documents);
  if (!meta || !(TEXT_MIMES.test(meta.mime) || TEXT_EXTENSIONS.test(meta.name))) return { status: "K", text: "" };
  const content = await read(meta);
  if (!content) return { status: "K", text: "" };
  let text: string;
  try {
    const head = content.subarray(0, MAX_FILE_TEXT * 4);
    // A cut may split a character: only a whole file must be valid UTF-8.
    text = new TextDecoder("utf-8", { fatal: head.length === content.length }).decode(head);
  } catch {
    return { status: "K", text: "" };
  }
  if (/html/i.test(meta.mime) || /\.html?$/i.test(meta.name)) text = htmlToText(text);
  return { status: "D", text: text.slice(0, MAX_FILE_TEXT) };
}

/** A document read by the extractor: a file it cannot read is marked K, never stops the index. */
async function extractDocument(meta: VaultFile, read: (file: VaultFile) => Promise<Uint8Array | undefined>, documents: DocumentTextExtractor): Promise<FileText> {
  const content = await read(meta);
  if (!content) return { status: "K", text: "" };
  try {
    const text = await documents.extract({ name: meta.name, mime: meta.mime }, content);
    return { status: "D", text: text.slice(0, MAX_FILE_TEXT) };
  } catch {
    return { status: "K", text: "" };
  }
}
