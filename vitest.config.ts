import { defineConfig } from "vitest/config";

/** The end-to-end suites: they run once on SQLite, and again on two nodes over PostgreSQL. */
const END_TO_END = ["packages/*/test/**/*.e2e.test.ts", "examples/*/test/**/*.e2e.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One real PostgreSQL for the run (its tests and the end-to-end suites on two nodes).
    globalSetup: ["packages/adapter-postgres/test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "lineage",
          include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: { name: "two nodes on postgres", include: END_TO_END, env: { LINEAGE_E2E_STORE: "postgres" } },
      },
    ],
  },
});
