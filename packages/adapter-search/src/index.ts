export { createCompactSearchIndex, type CompactSearchIndexOptions } from "./compact/compact-index.ts";
export { createMiniSearchIndex, type MiniSearchIndexOptions } from "./minisearch-index.ts";
export { createDocumentTexts, documentKind, type DocumentKind, type DocumentTextsOptions } from "./document-texts/create-document-texts.ts";
