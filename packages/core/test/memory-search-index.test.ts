import { beforeEach } from "vitest";
import { createMemorySearchIndex } from "../src/search/memory-search-index.ts";
import { searchIndexContract } from "../src/testing/search-index.contract.ts";

let disk = new Map<string, string>();
beforeEach(() => {
  disk = new Map();
});
searchIndexContract("memory", () => createMemorySearchIndex({ disk }));
