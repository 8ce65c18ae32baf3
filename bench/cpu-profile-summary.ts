import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/*
 * Where a process spent its time, from the .cpuprofile that `node --cpu-prof` writes (the
 * benchmarks' --profile DIR): self time summed by function (name, file and line) and by file,
 * the largest first, and the time in and under each function; with --callers TEXT, the call paths (up to --depth frames) to the functions whose
 * line holds TEXT, by the time spent in and under them.
 * `tsx bench/cpu-profile-summary.ts FILE.cpuprofile [--top N] [--callers TEXT [--depth N]]`.
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values: args, positionals } = parseArgs({ options: { top: { type: "string", default: "40" }, callers: { type: "string" }, depth: { type: "string", default: "8" } }, allowPositionals: true });
const top = Number(args.top);
const file = positionals[0];
if (!file) throw new Error("usage: cpu-profile-summary.ts FILE.cpuprofile [--top N] [--callers TEXT [--depth N]]");
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((sum, us) => sum + us, 0);

/** A file's path from its URL, shortened to what follows node_modules or the packages folder. */
function shortFile(url: string): string {
  if (url === "") return "(native)";
  const path = url.replace(/^file:\/\//, "");
  const modules = path.lastIndexOf("node_modules/");
  if (modules >= 0) return path.slice(modules + "node_modules/".length).replace(/^\.pnpm\/[^/]+\/node_modules\//, "");
  const packages = path.indexOf("/packages/");
  return packages >= 0 ? path.slice(packages + 1) : path;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || "(anonymous)"} ${shortFile(url)}${url ? `:${lineNumber + 1}` : ""}`;
}

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const where = shortFile(node.callFrame.url);
  byFunction.set(frameName(node), (byFunction.get(frameName(node)) ?? 0) + us);
  byFile.set(where, (byFile.get(where) ?? 0) + us);
}

const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print("self time by function", byFunction);
print("self time by file", byFile);

const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
// Time in a function and under it, counted once per sample however deep the recursion.
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) seen.add(frameName(byId.get(at)!));
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
}
print("total time (in and under) by function", inclusive);

if (args.callers) {
  const parent = parentOf;
  // The time of a node and everything under it, counted once at the outermost matching frame of a sample.
  const paths = new Map<string, number>();
  for (const [id, us] of selfUs) {
    let match: number | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (frameName(byId.get(at)!).includes(args.callers)) match = at;
    if (match === undefined) continue;
    const frames: string[] = [];
    for (let at: number | undefined = match; at !== undefined && frames.length < Number(args.depth); at = parent.get(at)) frames.push(frameName(byId.get(at)!));
    const key = frames.join("\n           < ");
    paths.set(key, (paths.get(key) ?? 0) + us);
  }
  print(`call paths to "${args.callers}" (time in and under it)`, paths);
}
