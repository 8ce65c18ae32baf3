import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const BIN = join(ROOT, "packages/cli/bin/lineage.mjs");

/*
 * `node` arguments that run the `lineage` command as an installed package runs it: the built
 * JavaScript of dist/, which the command line project's global set-up (build-setup.ts) brings up
 * to date with the sources before any test. Starting from the sources instead costs tsx's
 * compilation at every start, about 0.7 s of CPU per command, which these suites pay a hundred times.
 */
// LINEAGE_TEST_CLI=sources runs them from the sources, as the suites did before (bench/test-suite.ts measures both).
export const LINEAGE = process.env.LINEAGE_TEST_CLI === "sources" ? ["--conditions=@lineage/source", BIN] : [BIN];

/** The command from the TypeScript sources (through tsx): for a configuration that names a `.ts` module of its own. */
export const LINEAGE_FROM_SOURCES = ["--conditions=@lineage/source", BIN];
