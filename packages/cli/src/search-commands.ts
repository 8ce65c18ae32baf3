import { parseArgs } from "node:util";
import type { Io } from "./main.ts";
import { openLineage } from "./start-lineage.ts";
import { STORE_OPTIONS, storeLocationOf } from "./store-location.ts";
import { UsageError } from "./usage-error.ts";


const BAR_WIDTH = 30;

/**
 * A progress bar redrawn in place on a terminal (stderr); elsewhere (a pipe,
 * a log, a test) one line per tenth, so the output stays readable.
 */
export function progressBar(io: Io, label: string, terminal = process.stderr.isTTY === true) {
  let lastTenth = -1;
  return (done: number, total: number) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const percent = Math.floor(ratio * 100);
    if (terminal) {
      const filled = Math.round(ratio * BAR_WIDTH);
      process.stderr.write(`\r${label} [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${percent}% ${done}/${total}${ratio === 1 ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor(ratio * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    io.out(`${label} ${percent}% ${done}/${total}`);
  };
}

/**
 * `lineage search reindex [--data DIR] [--database URL] [DOMAIN]`: rebuilds the indexes of
 * one domain or all, persists them and raises their generation, so a server
 * running on the same DIR loads them at its next tick.
 */
export async function searchReindex(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: STORE_OPTIONS });
  if (positionals.length > 1) throw new UsageError("lineage search reindex takes at most one DOMAIN");
  const { platform } = await openLineage(storeLocationOf(values));
  try {
    const engine = platform.fullsearch.engine;
    const names = positionals.length === 1 ? [(await engine.domain(positionals[0]!)).name] : (await engine.domains()).map((d) => d.name);
    if (names.length === 0) io.out("No search domain is recorded: import a bundle with searchDomains first.");
    for (const name of names) {
      const started = performance.now();
      const count = await engine.rebuild(name, { announce: true, onProgress: progressBar(io, `Reindexing "${name}"`) });
      io.out(`Domain "${name}": ${count} elements indexed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    }
    return 0;
  } finally {
    await platform.store.close();
  }
}
