import type { Command } from "commander";
import { createDocumentTexts } from "@lineage/adapter-search";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { progressBar } from "./progress-bar.ts";
import { openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";

/** `lineage search reindex [DOMAIN]`. */
export function searchCommands(program: Command, io: Io, run: Run): void {
  const search = program.command("search").description("full-text search indexes: reindex");
  withStoreOptions(search.command("reindex").description("rebuild the indexes of one search domain or all, with a progress bar; a server on the same data loads them at its next tick"))
    .argument("[domain]", "the search domain", undefined)
    .action((domain: string | undefined, flags: StoreFlags) => run(() => searchReindex(domain, flags, io)));
}

/**
 * Rebuilds the indexes of one domain or all, persists them and raises their generation, so that
 * a server running on the same DIR loads them at its next tick.
 */
async function searchReindex(domain: string | undefined, flags: StoreFlags, io: Io): Promise<number> {
  const documents = createDocumentTexts();
  const { platform, store } = await openLineage(storeLocationOf(flags), [], { documents }).catch(async (error: unknown) => {
    await documents.close();
    throw error;
  });
  try {
    const engine = platform.fullsearch.engine;
    const names = domain !== undefined ? [(await engine.domain(domain)).name] : (await engine.domains()).map((d) => d.name);
    if (names.length === 0) io.out("No search domain is recorded: import a bundle with searchDomains first.");
    for (const name of names) {
      const started = performance.now();
      const count = await engine.rebuild(name, { announce: true, onProgress: progressBar(`Reindexing "${name}"`, { line: (text) => io.out(text) }) });
      io.out(`Domain "${name}": ${count} elements indexed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    }
    return 0;
  } finally {
    await documents.close();
    await store.close();
  }
}
