export { createMemoryStore, type MemoryStoreOptions } from "./memory-store.ts";
export { storeContract } from "./store.contract.ts";
