import type { Platform } from "@lineage/core";
import type { Io } from "./io.ts";

/**
 * After `lineage import`: brings the index of every search domain current with what the import
 * wrote and writes its snapshot, so that `serve` on the same data loads it and answers its first
 * search at once instead of building it. A domain that names search callables is left to the
 * server, which alone is given them (`serve --config`): built here without them, its index would
 * miss their text.
 */
export async function indexImported(platform: Platform, io: Io): Promise<void> {
  const engine = platform.fullsearch.engine;
  for (const domain of await engine.domains()) {
    if (domain.configs.some((config) => config.callables.length > 0)) {
      io.err(`lineage import: search domain "${domain.name}" names search callables: its index is built by \`lineage serve\``);
      continue;
    }
    const started = performance.now();
    const documents = await engine.refresh(domain.name);
    io.out(`search domain "${domain.name}": index current, ${documents} documents (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}
