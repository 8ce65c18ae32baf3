export { createMemoryStore, type MemoryStoreOptions } from "./memory-store.ts";
export { storeContract } from "./store.contract.ts";
export { eventLogContract } from "./event-log.contract.ts";
export { folderRepositoryContract } from "./folder-repository.contract.ts";
export { lockRepositoryContract } from "./lock-repository.contract.ts";
export { elementFilterContract, FILTER_STRUCTURES } from "./element-filter.contract.ts";
export { dashboardCatalogContract } from "./dashboard-catalog.contract.ts";
export { createMemoryDashboardServer, type MemoryDashboardServer } from "./memory-dashboard-server.ts";
export { createMemoryImageStore } from "./memory-image-store.ts";
export { imageStoreContract } from "./image-store.contract.ts";
export { imageProcessorContract } from "./image-processor.contract.ts";
export { authStoreContract } from "./auth-store.contract.ts";
export { throttleStoreContract } from "./throttle-store.contract.ts";
export { createMemorySessionRepository } from "./memory-session-repository.ts";
export { createMemoryTokenRepository } from "./memory-token-repository.ts";
export { searchIndexContract } from "./search-index.contract.ts";
export { createMemorySearchIndex, type MemorySearchIndexOptions } from "../search/memory-search-index.ts";
export { manualClock, principalsOf, seededPlatform } from "./seeded-platform.ts";
export { REVIEW_LIFECYCLE, lifecyclePlatform, recordingHooks } from "./lifecycle-platform.ts";
export { countingStore, type CountingStore } from "./counting-store.ts";
export {
  FILES, baseBundle, bytes, countingHasher, folder, snapshot, testPlatform, tickingClock, vaultFiles, type RawBundle,
} from "./bundle-helpers.ts";
export { SEARCH_FILES, searchBundle, searchWorld, type SearchWorld } from "./search-world.ts";
export { workflowEngineContract, type WorkflowEngineNeeds } from "./workflow-engine.contract.ts";
export { dashboardServerContract, type DashboardSeed, type DashboardServerUnderTest } from "./dashboard-server.contract.ts";
export { documentTextExtractorContract, type DocumentSample, type DocumentTextExtractorContractOptions } from "./document-text-extractor.contract.ts";
export { webhookRepositoryContract } from "./webhook-repository.contract.ts";
export { createMemoryWebhookRepository } from "./memory-webhook-repository.ts";
