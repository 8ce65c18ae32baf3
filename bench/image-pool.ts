import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { positive, benchTrees } from "./bench-options.ts";
import { percentile } from "./load.ts";

/*
 * `pnpm exec tsx bench/image-pool.ts --trees before=DIR,after=DIR`: the jimp processor of each tree
 * (its worker pool: ours, or piscina) side by side in this process, the trees taking turns:
 *   - small resizes (a 200x150 photo-like JPEG to 100 px wide), one at a time, then 8 at once: where
 *     the pool's own cost (dispatch, messages, transfers) shows, a resize taking a few ms;
 *   - the cold resize of a 2000x1500 photo-like JPEG to 200 px wide (what the Images benchmark times).
 * One worker per processor, as `lineage serve` has on 2 cores. Prints the wall time of a resize (median,
 * p99) and the CPU time per resize of this process, workers included: on a shared machine the wall
 * time moves with the others' load, the CPU time much less. Writes nothing.
 */

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    rounds: { type: "string", default: "4" },
    small: { type: "string", default: "200" },
    large: { type: "string", default: "2" },
  },
});
const trees = benchTrees(args.trees);
const rounds = positive("rounds", args.rounds, 20);
/** jimp, resolved from the images adapter's package (the root does not depend on it); only what the photos need. */
interface JimpImage { bitmap: { data: Buffer }; getBuffer(mime: "image/jpeg", options: { quality: number }): Promise<Buffer> }
const { Jimp } = createRequire(new URL("../packages/adapter-images/package.json", import.meta.url))("jimp") as {
  Jimp: new (options: { width: number; height: number; color: number }) => JimpImage;
};
const smallRuns = positive("small", args.small, 10_000);
const largeRuns = positive("large", args.large, 20);

interface Processor {
  transform(source: Uint8Array, plan: { keep: false; width: number; height: number }, format: "jpeg"): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A photo-like JPEG: gradients and grain, so that it weighs and decodes as a photo does. */
async function photo(width: number, height: number): Promise<Uint8Array> {
  const image = new Jimp({ width, height, color: 0x000000ff });
  const data = image.bitmap.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const grain = (Math.random() - 0.5) * 40;
      data[at] = Math.max(0, Math.min(255, 128 + 100 * Math.sin(x / 97) + grain));
      data[at + 1] = Math.max(0, Math.min(255, 128 + 100 * Math.cos(y / 71) + grain));
      data[at + 2] = Math.max(0, Math.min(255, ((x + y) / (width + height)) * 255 + grain));
    }
  }
  return new Uint8Array(await image.getBuffer("image/jpeg", { quality: 85 }));
}

const small = await photo(200, 150);
const large = await photo(2000, 1500);
const processors = new Map<string, Processor>();
for (const tree of trees) {
  const { createJimpProcessor } = await import(pathToFileURL(join(tree.dir, "packages/adapter-images/src/jimp-processor.ts")).href);
  const processor = createJimpProcessor({ workers: 1 }) as Processor;
  await processor.transform(small, { keep: false, width: 50, height: 38 }, "jpeg"); // the worker up, jimp loaded
  processors.set(tree.label, processor);
}

const samples = new Map<string, number[]>();
const cpu = new Map<string, { us: number; count: number }>();
const record = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
/** Runs `batch` and adds the process's CPU time (main thread and workers) to `key`, over `count` resizes. */
async function timed(key: string, count: number, batch: () => Promise<void>): Promise<void> {
  const started = process.cpuUsage();
  await batch();
  const used = process.cpuUsage(started);
  const total = cpu.get(key) ?? { us: 0, count: 0 };
  cpu.set(key, { us: total.us + used.user + used.system, count: total.count + count });
}

for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const tree of order) {
    const processor = processors.get(tree.label) as Processor;
    await timed(`${tree.label}|small, one at a time`, smallRuns, async () => {
      for (let i = 0; i < smallRuns; i++) {
        const started = performance.now();
        await processor.transform(small, { keep: false, width: 100, height: 75 }, "jpeg");
        record(`${tree.label}|small, one at a time`, performance.now() - started);
      }
    });
    await timed(`${tree.label}|small, 8 at once`, smallRuns, async () => {
      for (let i = 0; i < smallRuns; i += 8) {
        const started = performance.now();
        await Promise.all(Array.from({ length: 8 }, () => processor.transform(small, { keep: false, width: 100, height: 75 }, "jpeg")));
        // Per resize: the batch's time over its 8 resizes.
        record(`${tree.label}|small, 8 at once`, (performance.now() - started) / 8);
      }
    });
    await timed(`${tree.label}|2000x1500 to 200 px`, largeRuns, async () => {
      for (let i = 0; i < largeRuns; i++) {
        const started = performance.now();
        await processor.transform(large, { keep: false, width: 200, height: 150 }, "jpeg");
        record(`${tree.label}|2000x1500 to 200 px`, performance.now() - started);
      }
    });
    console.log(`bench: round ${round + 1}, ${tree.label} done`);
  }
}
for (const processor of processors.values()) await processor.close();

const cases = ["small, one at a time", "small, 8 at once", "2000x1500 to 200 px"];
console.log(`\n| Resize: wall ms per resize (median / p99), and CPU ms per resize (this process, workers included) | ${trees.map((tree) => tree.label).join(" | ")} |`);
console.log(`|---|${trees.map(() => "---").join("|")}|`);
for (const name of cases) {
  const cells = trees.map((tree) => {
    const values = Float64Array.from(samples.get(`${tree.label}|${name}`) ?? []).sort();
    const spent = cpu.get(`${tree.label}|${name}`) ?? { us: NaN, count: 1 };
    return `${percentile(values, 50).toFixed(2)} / ${percentile(values, 99).toFixed(2)}, CPU ${(spent.us / spent.count / 1000).toFixed(2)} (${values.length})`;
  });
  console.log(`| ${name} | ${cells.join(" | ")} |`);
}
