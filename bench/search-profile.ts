import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createCompactSearchIndex } from "../packages/adapter-search/src/index.ts";
import type { IndexedDocument, SearchQuery } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { createRandom } from "./generate-bundle.ts";
import { millionElement } from "./million-bundle.ts";

/*
 * The compact index alone, in process, on the million benchmark's texts (bench/million-bundle.ts,
 * words split on spaces, no stemming), by `pnpm bench:search-profile [--count N] [--runs N] [--reuse]`:
 * builds the index of N elements (200,000 by default) and writes its snapshot, then times the
 * benchmark's three searches to their first page (median of --runs), the phrase taking hits until 10
 * hold its words side by side (the check the caller makes on the text), then opens the snapshot again
 * and times a first search. The snapshot stays in the temporary folder (lineage-search-profile-N):
 * --reuse opens it instead of building. Writes nothing to docs/. For a CPU profile:
 * `NODE_OPTIONS=--conditions=@lineage/source node --cpu-prof --import tsx bench/search-profile.ts --count 200000`.
 */
const { values: args } = parseArgs({
  options: { count: { type: "string", default: "200000" }, runs: { type: "string", default: "30" }, reuse: { type: "boolean", default: false } },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 10_000);
const random = createRandom(0x1e6);
const dir = join(tmpdir(), `lineage-search-profile-${count}`);
const index = createCompactSearchIndex({ dir });
const DOMAIN = "million";
index.reset(DOMAIN, { fingerprint: "x", generation: 1, seq: 0 });
// Whether each element's text holds the phrase "river stone" (what the caller checks on the text), kept small: a
// map of a million word arrays would make the collector's pauses part of every figure.
const adjacentIds = new Uint8Array(count + 1);
let batch: IndexedDocument[] = [];
let started = performance.now();
for (let i = 1; i <= count; i++) {
  const { values } = millionElement(i, random);
  const text = values.mn_text.split(" ");
  for (let w = 0; w + 1 < text.length; w++) if (text[w] === "river" && text[w + 1] === "stone") adjacentIds[i] = 1;
  if (args.reuse) continue;
  batch.push({ id: i, structure: "MILLION_NOTE", terms: { A: values.mn_title.split(" "), B: text } });
  if (batch.length === 5000) {
    index.upsert(DOMAIN, batch);
    batch = [];
  }
}
if (args.reuse) {
  started = performance.now();
  await index.open(DOMAIN, { fingerprint: "x", generation: 1 });
  console.log(`open (snapshot load) ${(performance.now() - started).toFixed(0)} ms`);
} else {
  index.upsert(DOMAIN, batch);
  await index.persist(DOMAIN);
  console.log(`build ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const term = (t: string): SearchQuery => ({ groups: [[{ kind: "term", term: t, negated: false }]] });
const phrase: SearchQuery = { groups: [[{ kind: "phrase", terms: ["river", "stone"], negated: false }]] };
const adjacent = (id: number) => adjacentIds[id] === 1;

function firstPage(query: SearchQuery, check?: (id: number) => boolean): { ms: number; taken: number } {
  const t0 = performance.now();
  let taken = 0;
  let kept = 0;
  for (const hit of index.search(DOMAIN, query)) {
    taken++;
    if (!check || check(hit.id)) kept++;
    if (kept === 10) break;
  }
  return { ms: performance.now() - t0, taken };
}
for (const [name, query, check] of [["common", term("common")], ["rare", term("zeppelin")], ["phrase", phrase, adjacent]] as const) {
  const times: number[] = [];
  let taken = 0;
  for (let r = 0; r < runs; r++) {
    const result = firstPage(query, check);
    times.push(result.ms);
    taken = result.taken;
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: median ${times[times.length >> 1]!.toFixed(2)} ms, first ${times[0]!.toFixed(2)}, hits taken ${taken}`);
}
started = performance.now();
await index.open(DOMAIN, { fingerprint: "x", generation: 1 });
console.log(`open (snapshot load) ${(performance.now() - started).toFixed(0)} ms`);
const after = firstPage(term("common"));
console.log(`first search after open: ${after.ms.toFixed(1)} ms`);
