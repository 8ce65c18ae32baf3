import { createMemoryStore, elementFilterContract, eventLogContract, storeContract } from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
elementFilterContract("memory", () => createMemoryStore());
eventLogContract("memory", () => createMemoryStore());
