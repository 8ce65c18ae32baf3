import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { positive, benchTrees } from "./bench-options.ts";

/*
 * `pnpm exec tsx bench/http-pieces.ts --trees before=DIR,after=DIR`: the app's CPU time per request
 * for a few requests (a cached GET with and without X-Request-Id, a PUT, a POST overridden as a PUT),
 * each tree in a process of its own (bench/http-pieces-child.ts), the trees in alternating order
 * (A B B A ...) for --rounds rounds of --batches batches of --requests requests.
 *
 * What it is for: comparing two versions of a piece on the request path (a middleware, a library
 * in place of our own code) whose difference is a few µs, which the HTTP benchmarks cannot resolve on
 * a shared VM (their throughput moves by 20 % and more between rounds of the same code). CPU time of
 * one process, with no socket and no client, moves far less with the load of the machine. Prints the
 * median and the lowest batch per tree and request; writes nothing.
 */

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    rounds: { type: "string", default: "6" },
    batches: { type: "string", default: "5" },
    requests: { type: "string", default: "4000" },
  },
});
const trees = benchTrees(args.trees);
const rounds = positive("rounds", args.rounds, 50);
const batches = positive("batches", args.batches, 50);
const requests = positive("requests", args.requests, 1_000_000);
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const child = new URL("./http-pieces-child.ts", import.meta.url).pathname;

const samples = new Map<string, Map<string, number[]>>();
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const tree of order) {
    const output = execFileSync(process.execPath, [tsxCli, child, tree.dir, String(batches), String(requests)], { encoding: "utf8" });
    const figures = JSON.parse(output.trim().split("\n").pop() ?? "{}") as Record<string, number[]>;
    const byCase = samples.get(tree.label) ?? new Map<string, number[]>();
    for (const [name, values] of Object.entries(figures)) byCase.set(name, [...(byCase.get(name) ?? []), ...values]);
    samples.set(tree.label, byCase);
    console.log(`bench: round ${round + 1}, ${tree.label}: ${Object.entries(figures).map(([name, values]) => `${name} ${median(values).toFixed(1)}`).join("; ")}`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

const first = trees[0]?.label ?? "";
const names = [...(samples.get(first)?.keys() ?? [])];
console.log(`\n| Request (µs of CPU per request: median / lowest of ${rounds * batches} batches of ${requests}) | ${trees.map((tree) => tree.label).join(" | ")} | ${trees.slice(1).map((tree) => `${tree.label} vs ${first}`).join(" | ")} |`);
console.log(`|---|${trees.map(() => "---").join("|")}|${trees.slice(1).map(() => "---").join("|")}|`);
for (const name of names) {
  const cells = trees.map((tree) => samples.get(tree.label)?.get(name) ?? []);
  const base = median(cells[0] ?? []);
  const changes = cells.slice(1).map((values) => `${(((median(values) - base) / base) * 100).toFixed(1)} %`);
  console.log(`| ${name} | ${cells.map((values) => `${median(values).toFixed(1)} / ${Math.min(...values).toFixed(1)}`).join(" | ")} | ${changes.join(" | ")} |`);
}
