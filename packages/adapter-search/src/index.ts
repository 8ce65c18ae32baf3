export { createMiniSearchIndex, type MiniSearchIndexOptions } from "./minisearch-index.ts";
