import type { DocumentFile, DocumentTextExtractor } from "@lineage/core";
import { Piscina } from "piscina";

export interface DocumentTextsOptions {
  /** Worker threads reading documents at once (1 by default: indexing runs in the background). */
  readonly workers?: number;
  /** The longest one document may take, in ms (20 s by default): past it its worker is stopped and the file marked K. */
  readonly timeoutMs?: number;
  /** The heap one worker may use, in MB (256 by default): past it the worker is stopped and the file marked K. */
  readonly maxHeapMb?: number;
  /** The largest document read, in bytes, and the most an ODT's content.xml may inflate to (64 MB by default). */
  readonly maxBytes?: number;
}

export type DocumentKind = "pdf" | "docx" | "odt";

const KINDS: readonly { readonly kind: DocumentKind; readonly mime: RegExp; readonly name: RegExp }[] = [
  { kind: "pdf", mime: /^application\/pdf\b/i, name: /\.pdf$/i },
  { kind: "docx", mime: /^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document\b/i, name: /\.docx$/i },
  { kind: "odt", mime: /^application\/vnd\.oasis\.opendocument\.text\b/i, name: /\.odt$/i },
];

/** The kind of document a file is, by its mime type, else its name; undefined for other files. */
export function documentKind(file: DocumentFile): DocumentKind | undefined {
  return (KINDS.find(({ mime }) => mime.test(file.mime)) ?? KINDS.find(({ name }) => name.test(file.name)))?.kind;
}

/**
 * Reads the text of PDF (unpdf, on pdf.js), DOCX (mammoth) and ODT (content.xml through fflate)
 * files in worker threads of a piscina pool, each document bounded in time, heap and size: one
 * that passes a bound, or cannot be read, is refused, and the index marks it K.
 * @example
 * const documents = createDocumentTexts();
 * createPlatform({ store, searchDocuments: documents });
 */
export function createDocumentTexts(options: DocumentTextsOptions = {}): DocumentTextExtractor & { close(): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const workers = Math.max(1, options.workers ?? 1);
  const maxHeapMb = options.maxHeapMb ?? 256;
  const pool = new Piscina({
    filename: new URL("./document-text-worker.mjs", import.meta.url).href,
    minThreads: 0, maxThreads: workers, idleTimeout: 5_000,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.ceil(maxHeapMb / 4)) },
  });
  return {
    handles: (file) => documentKind(file) !== undefined,
    async extract(file, content) {
      const kind = documentKind(file);
      if (!kind) throw new Error(`"${file.name}" (${file.mime}) is no PDF, DOCX or ODT document`);
      if (content.byteLength > maxBytes) throw new Error(`"${file.name}" has ${content.byteLength} bytes, more than ${maxBytes}`);
      // A copy is moved to the worker: the caller's bytes stay usable. The abort stops a worker still busy past the time.
      const copy = content.slice();
      const text: unknown = await pool.run({ kind, content: copy, maxBytes }, { transferList: [copy.buffer as ArrayBuffer], signal: AbortSignal.timeout(timeoutMs) });
      if (typeof text !== "string") throw new Error(`"${file.name}": the reader gave no text`);
      return text;
    },
    close: () => pool.destroy(),
  };
}
