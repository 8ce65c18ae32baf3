import { createMemoryStore, elementFilterContract, storeContract } from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
elementFilterContract("memory", () => createMemoryStore());
