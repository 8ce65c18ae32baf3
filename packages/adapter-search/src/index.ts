export { createCompactSearchIndex, type CompactSearchIndexOptions } from "./compact/compact-index.ts";
export { createMiniSearchIndex, type MiniSearchIndexOptions } from "./minisearch-index.ts";
