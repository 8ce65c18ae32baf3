import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One real PostgreSQL for the run (its tests and the end-to-end suites on two nodes).
    globalSetup: ["packages/adapter-postgres/test/global-setup.ts"],
  },
});
