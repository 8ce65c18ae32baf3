import { createMemoryStore, elementFilterContract, folderRepositoryContract, storeContract } from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
folderRepositoryContract("memory", () => createMemoryStore());
elementFilterContract("memory", () => createMemoryStore());
