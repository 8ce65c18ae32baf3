import type { IndexedFileStatus } from "../ports/search-index.port.ts";
import type { Vault } from "../ports/vault.port.ts";
import { htmlToText } from "./html-text.ts";

/** The most text kept of one file (characters): the rest is not indexed. */
export const MAX_FILE_TEXT = 1_000_000;

const TEXT_MIMES = /^text\/(plain|markdown|x-markdown|html|csv)\b|^application\/(xhtml\+xml|json)\b/i;
const TEXT_EXTENSIONS = /\.(txt|md|markdown|html?|csv|json)$/i;

/** The text of a vault file and its indexing status: D read, K not a text, HTML or markdown file (or unreadable). */
export interface FileText {
  readonly status: IndexedFileStatus;
  readonly text: string;
}

/**
 * Extracted texts by vault id. Vault files never change under an id, so a
 * text extracted once serves every later reindex; the cache is bounded.
 */
export interface FileTextCache {
  text(vault: Vault, vaultId: number): FileText;
  /** Characters held. */
  size(): number;
}

/** A cache of extracted file texts holding at most `maxChars` characters (oldest dropped first). */
export function createFileTextCache(maxChars = 16_000_000): FileTextCache {
  const cache = new Map<number, FileText>();
  let size = 0;
  return {
    text(vault, vaultId) {
      const cached = cache.get(vaultId);
      if (cached) return cached;
      const found = extract(vault, vaultId);
      cache.set(vaultId, found);
      size += found.text.length;
      for (const [id, entry] of cache) {
        if (size <= maxChars) break;
        cache.delete(id);
        size -= entry.text.length;
      }
      return found;
    },
    size: () => size,
  };
}

function extract(vault: Vault, vaultId: number): FileText {
  const meta = vault.file(vaultId);
  if (!meta || !(TEXT_MIMES.test(meta.mime) || TEXT_EXTENSIONS.test(meta.name))) return { status: "K", text: "" };
  const content = vault.read(vaultId);
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
