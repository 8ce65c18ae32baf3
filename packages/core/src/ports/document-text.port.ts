/** A stored file as a text extractor sees it. */
export interface DocumentFile {
  readonly name: string;
  readonly mime: string;
}

/**
 * Reads the text of documents that are not plain text (PDF, ODT, DOCX...) for the full-text
 * index. An implementation bounds the time and memory one file may take: a file it cannot
 * read within them is refused, and the index marks it K (failing) and goes on.
 */
export interface DocumentTextExtractor {
  /** True when it reads files of this kind (by mime type or name). */
  handles(file: DocumentFile): boolean;
  /** The file's text; rejects when the file cannot be read. */
  extract(file: DocumentFile, content: Uint8Array): Promise<string>;
}
