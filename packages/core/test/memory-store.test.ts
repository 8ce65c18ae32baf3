import { createMemoryStore, storeContract } from "../src/testing/index.ts";

storeContract("memory", () => createMemoryStore());
