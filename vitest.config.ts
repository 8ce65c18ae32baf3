import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** The end-to-end suites: each starts a real server; they run once on SQLite, and again on two nodes over PostgreSQL. */
const END_TO_END = ["packages/*/test/**/*.e2e.test.ts", "examples/*/test/**/*.e2e.test.ts"];
/** Suites that drive a real browser (Debian's chromium through playwright-core). */
const BROWSER = ["packages/*/test/**/*.browser.test.ts"];
/** The command line's suites: `lineage` as child processes, or whole servers started as `serve` starts them. */
const COMMAND_LINE = ["packages/cli/test/**/*.test.ts"];
/** The PostgreSQL store's suites, on the run's server: each file's connections end with its worker. */
const POSTGRES = ["packages/adapter-postgres/test/**/*.test.ts"];
/** Every other suite of the packages, examples and benchmarks: in process, nothing left running after a file. */
const UNIT = ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts"];

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
    // vitest's default is a worker less than the cores: one on a 2-core machine, every file in
    // turn. Most files spend much of their time waiting (sockets, child processes, PostgreSQL,
    // worker threads), so a worker per core keeps them all busy.
    maxWorkers: Math.max(availableParallelism(), 2),
    // One real PostgreSQL for the run (its tests and the end-to-end suites on two nodes).
    globalSetup: ["packages/adapter-postgres/test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: [...END_TO_END, ...BROWSER, ...COMMAND_LINE, ...POSTGRES],
          // The files share one module graph per worker instead of importing the packages again each.
          isolate: false,
          pool: "threads",
        },
      },
      {
        extends: true,
        // Each file opens and closes its own stores on databases of its own: it shares nothing but modules.
        test: { name: "postgres", include: POSTGRES, isolate: false },
      },
      {
        extends: true,
        // One module graph per worker too: a file's own server is all it starts, and importing the
        // packages again for each file was most of this project's time (docs/benchmarks.md, "Test suite").
        test: { name: "end-to-end", include: END_TO_END, isolate: false },
      },
      {
        extends: true,
        // Its `lineage` commands run the built JavaScript, as installed, built before them.
        test: { name: "command line", include: COMMAND_LINE, exclude: END_TO_END, globalSetup: ["packages/cli/test/build-setup.ts"] },
      },
      { extends: true, test: { name: "browser", include: BROWSER } },
      {
        extends: true,
        test: { name: "two nodes on postgres", include: END_TO_END, isolate: false, env: { LINEAGE_E2E_STORE: "postgres" } },
      },
      // test/packed-app/ is the app it installs, tested there, not here.
      { extends: true, test: { name: "packages", include: ["test/*.test.ts"] } },
    ],
  },
});
