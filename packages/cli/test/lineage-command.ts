import { join, resolve } from "node:path";

/*
 * `node` arguments that run the `lineage` command (bin/lineage.mjs) from the TypeScript sources,
 * as every test of the workspace runs: no build needed, and a change to the sources counts at once.
 */

const ROOT = resolve(import.meta.dirname, "../../..");

export const LINEAGE = ["--conditions=@lineage/source", join(ROOT, "packages/cli/bin/lineage.mjs")];
