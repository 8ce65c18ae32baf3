import { authStoreContract, createMemoryStore } from "../src/testing/index.ts";

authStoreContract("memory", { open: () => createMemoryStore() });
