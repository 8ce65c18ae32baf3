import {
  createMemoryStore, elementFilterContract, eventLogContract, folderRepositoryContract, storeContract, webhookRepositoryContract,
} from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
folderRepositoryContract("memory", () => createMemoryStore());
elementFilterContract("memory", () => createMemoryStore());
eventLogContract("memory", () => createMemoryStore());
webhookRepositoryContract("memory", () => createMemoryStore());
