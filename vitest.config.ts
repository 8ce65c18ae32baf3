import { defineConfig } from "vitest/config";

/** The end-to-end suites: they run once on SQLite, and again on two nodes over PostgreSQL. */
const END_TO_END = ["packages/*/test/**/*.e2e.test.ts", "examples/*/test/**/*.e2e.test.ts"];

/**
 * Inside the workspace each @lineage/* package resolves to its TypeScript sources (the
 * "@lineage/source" condition of its exports), never to a build. Given to every Vite environment,
 * vitest's own included: it loads the global setup (issue vitest-dev/vitest#9429: setup files
 * ignore `ssr.resolve.conditions`).
 */
const sourcesOfTheWorkspace = {
  name: "lineage-sources",
  configEnvironment: () => ({ resolve: { conditions: ["@lineage/source"] } }),
};

export default defineConfig({
  plugins: [sourcesOfTheWorkspace],
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
