import {
  createMemoryStore, elementFilterContract, eventLogContract, folderRepositoryContract, lockRepositoryContract, storeContract, webhookRepositoryContract,
} from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
folderRepositoryContract("memory", () => createMemoryStore());
lockRepositoryContract("memory", () => createMemoryStore());
elementFilterContract("memory", () => createMemoryStore());
eventLogContract("memory", () => createMemoryStore());
webhookRepositoryContract("memory", () => createMemoryStore());
