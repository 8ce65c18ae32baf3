import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openLineage } from "@lineage/cli";
import { parseImageSize, planResize, readImageHeader, type ImageProcessor } from "../packages/core/src/index.ts";
import { createJimpProcessor } from "../packages/adapter-images/src/index.ts";
import { createSharpProcessor } from "../packages/adapter-images-sharp/src/index.ts";
import { benchArgOptions, benchOptions, changedLoadArgs, positive } from "./bench-options.ts";
import { openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { basicAuth, checkLoads, percentile, runLoad, type LoadResult } from "./load.ts";

/*
 * The Images benchmark (issue 6), run by `pnpm bench:images`:
 *  1. makes a photo-like 2000x1500 JPEG (gradients and grain, made with sharp) and a 200x150 JPEG;
 *  2. times, in this process, the cold resize of the large one to 200 px wide with each processor
 *     (jimp in a worker thread, sharp on libuv's pool): decode, resize, encode, median of --runs;
 *  3. for each processor, starts `lineage serve --images DIR` in a child (bench/server-process.ts) and loads with
 *     autocannon: the cached 200 px variant against the 200x150 original through the same route (same size of answer);
 *  4. measures GET one element while 20 cold resizes of the large JPEG run (distinct widths, all at once), against
 *     the same GET on an idle server;
 *  5. writes the section "## Images (issue 6)" of docs/benchmarks.md.
 *
 * Options: --duration S, --warmup S, --connections N, --budget S, --runs N, --no-docs.
 */

const SECTION = "## Images (issue 6)";
const TARGETS = { cachedShare: 0.7, elementP99Ms: 50 };
const LOGIN: [string, string] = ["bench", "bench-pw"];
const PROCESSORS = ["jimp", "sharp"] as const;
type ProcessorName = (typeof PROCESSORS)[number];

const { values: args } = parseArgs({ options: { ...benchArgOptions(600), runs: { type: "string", default: "5" } } });
const options = benchOptions(args);
const runs = positive("runs", args.runs, 20);
const session = openBenchSession({ tempPrefix: "lineage-bench-images-", budget: options.budget, profileDir: options.profileDir });
/** sharp, resolved from its adapter's package (the root does not depend on it); only what the photo needs. */
type Sharp = (input: Buffer, options: { raw: { width: number; height: number; channels: 3 } }) => { jpeg(o: { quality: number }): { toBuffer(): Promise<Buffer> } };
const sharp = createRequire(new URL("../packages/adapter-images-sharp/package.json", import.meta.url))("sharp") as Sharp;

/** A photo-like picture: smooth colour gradients with grain, so the JPEG weighs what a photo weighs. */
async function photoJpeg(width: number, height: number): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const grain = (Math.random() - 0.5) * 40;
      raw[at] = Math.max(0, Math.min(255, 128 + 100 * Math.sin(x / 97) + grain));
      raw[at + 1] = Math.max(0, Math.min(255, 128 + 100 * Math.cos(y / 71) + grain));
      raw[at + 2] = Math.max(0, Math.min(255, ((x + y) / (width + height)) * 255 + grain));
    }
  }
  return new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer());
}

// ---- measures ------------------------------------------------------------------------------

interface ColdFigures { readonly processor: ProcessorName; readonly median: number; readonly min: number; readonly max: number }

/** Cold resizes of the large JPEG to 200 px wide, one after the other (nothing cached), median of `runs`. */
async function timeCold(name: ProcessorName, processor: ImageProcessor, source: Uint8Array): Promise<ColdFigures> {
  const header = readImageHeader(source);
  if (!header) throw new Error("the source is no image");
  const plan = planResize(parseImageSize("200", "photo.jpg"), header);
  await processor.transform(source, plan, "jpeg"); // loads the worker's modules, not timed
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const out = await processor.transform(source, plan, "jpeg");
    samples.push(performance.now() - started);
    if (readImageHeader(out)?.width !== 200) throw new Error(`${name}: wrong width`);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)] ?? NaN;
  console.log(`bench: cold resize 2000x1500 -> 200 (${name}): median ${ms(median)} ms`);
  return { processor: name, median, min: samples[0] ?? NaN, max: samples[samples.length - 1] ?? NaN };
}

interface ServerFigures {
  readonly processor: ProcessorName;
  readonly original: LoadResult;
  readonly cached: LoadResult;
  readonly idle: Sampled;
  readonly busy: Sampled & { readonly resizeSeconds: number; readonly resizes: number };
}

interface Sampled { readonly count: number; readonly p50: number; readonly p99: number; readonly max: number }

const headers = { authorization: basicAuth(...LOGIN) };

/** GETs `url` from `clients` loops until `until` resolves (or `seconds` pass); every latency kept. */
async function sample(url: string, clients: number, until: Promise<unknown>): Promise<Sampled> {
  let done = false;
  const stop = () => { done = true; };
  until.then(stop, stop);
  const latencies: number[] = [];
  await Promise.all(Array.from({ length: clients }, async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
      latencies.push(performance.now() - started);
    }
  }));
  const sorted = Float64Array.from(latencies).sort();
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

async function serverRun(name: ProcessorName, dataDir: string, imagesDir: string, elementId: number): Promise<ServerFigures> {
  const { child, url } = await session.startServer("server-process.ts", [dataDir, imagesDir, name], false);
  try {
    const elementUrl = `${url}/api/v2/smart-elements/${elementId}`;
    await fetch(elementUrl, { headers }).then((r) => r.arrayBuffer()); // the password check (scrypt) once, apart
    const variant = `${url}/api/v2/images/assets/sizes/200/photo.jpg`;
    const first = await fetch(variant, { headers });
    if (first.status !== 200) throw new Error(`GET ${variant}: ${first.status} ${await first.text()}`);
    await first.arrayBuffer();
    console.log(`bench: ${name}: original 200x150 file, ${options.connections} connections`);
    const original = await runLoad(`${url}/api/v2/images/assets/original/photo-200.jpg`, headers, options);
    console.log(`bench: ${name}: cached 200 px variant of the 2000x1500 JPEG`);
    const cached = await runLoad(variant, headers, options);

    console.log(`bench: ${name}: GET one element, idle`);
    const idle = await sample(elementUrl, 2, new Promise((done) => setTimeout(done, options.duration * 1000)));
    console.log(`bench: ${name}: GET one element while 20 cold resizes run`);
    const started = performance.now();
    // Distinct widths: 20 variants nobody asked for yet (the 200 px one is cached).
    const resizes = Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const response = await fetch(`${url}/api/v2/images/assets/sizes/${300 + i}/photo.jpg`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`resize ${300 + i}: ${response.status}`);
    }));
    const busySample = await sample(elementUrl, 2, resizes);
    await resizes;
    const resizeSeconds = (performance.now() - started) / 1000;
    console.log(`bench:   idle p99 ${ms(idle.p99)} ms; during resizes p99 ${ms(busySample.p99)} ms (${busySample.count} GETs in ${resizeSeconds.toFixed(1)} s)`);
    return { processor: name, original, cached, idle, busy: { ...busySample, resizeSeconds, resizes: 20 } };
  } finally {
    child.kill("SIGTERM");
  }
}

// ---- the run -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const imagesDir = join(session.tempDir, "images");
  mkdirSync(imagesDir, { recursive: true });
  const large = await photoJpeg(2000, 1500);
  const small = await photoJpeg(200, 150);
  writeFileSync(join(imagesDir, "photo.jpg"), large);
  writeFileSync(join(imagesDir, "photo-200.jpg"), small);
  console.log(`bench: photo.jpg 2000x1500 ${thousands(large.byteLength)} bytes; photo-200.jpg ${thousands(small.byteLength)} bytes`);

  const cold: ColdFigures[] = [];
  for (const name of PROCESSORS) {
    const processor = name === "jimp" ? createJimpProcessor({ workers: 1 }) : createSharpProcessor();
    try {
      cold.push(await timeCold(name, processor, large));
    } finally {
      await processor.close();
    }
  }

  const servers: ServerFigures[] = [];
  for (const name of PROCESSORS) {
    const dataDir = join(session.tempDir, `data-${name}`);
    const { platform, store } = await openLineage({ dataDir });
    const account = await platform.accounts.add({ login: LOGIN[0], password: LOGIN[1], roles: ["admin"] });
    await store.catalog.saveStructure({ name: "NOTE", title: "Note", icon: "photo-200.jpg", fields: [{ id: "nt_title", type: "text" }] });
    const element = await platform.elements.create(await platform.accounts.principalOf(account), { structure: "NOTE", values: { nt_title: "Benchmark" } });
    await store.close();
    servers.push(await serverRun(name, dataDir, imagesDir, element.initid));
  }
  await session.cleanup();

  publishSection(renderSection({ largeBytes: large.byteLength, smallBytes: small.byteLength, cold, servers }), { heading: SECTION, write: options.writeDocs });
  checkLoads(servers.flatMap((s) => [s.original, s.cached]));
}

// ---- the docs ------------------------------------------------------------------------------

function renderSection(run: { largeBytes: number; smallBytes: number; cold: readonly ColdFigures[]; servers: readonly ServerFigures[] }): string {
  const extraArgs = [...changedLoadArgs(options), runs !== 5 ? `--runs ${runs}` : ""].filter(Boolean).join(" ");
  const share = (s: ServerFigures) => s.cached.requestsPerSecond / s.original.requestsPerSecond;
  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:images${extraArgs ? ` ${extraArgs}` : ""}\` ` +
      `(a photo-like 2000x1500 JPEG of ${thousands(run.largeBytes)} bytes and a 200x150 JPEG of ${thousands(run.smallBytes)} bytes in the Images directory; ` +
      `${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s per load).`,
    "",
    `${machineLine()} The server runs in a child process (\`lineage serve --images DIR\`, HTTP Basic, one jimp worker thread on 2 cores); ` +
      "autocannon and the GET loops run in the benchmark's process on the same cores. Other work shared the machine during the run.",
    "",
    "| Target | Processor | Measured | Goal | Status |",
    "|---|---|---|---|---|",
    ...run.servers.map((s) => `| Cached 200 px variant vs the 200x150 original file, same route, req/s | ${s.processor} | ${(share(s) * 100).toFixed(0)}% | >= ${TARGETS.cachedShare * 100}% | ${mark(share(s) >= TARGETS.cachedShare)} |`),
    ...run.servers.map((s) => `| GET one element while 20 cold resizes run, p99 | ${s.processor} | ${ms(s.busy.p99)} ms | < ${TARGETS.elementP99Ms} ms | ${mark(s.busy.p99 < TARGETS.elementP99Ms)} |`),
    "",
    `| Cold resize 2000x1500 JPEG -> 200 px wide JPEG (decode, resize, encode; in process, ${runs} runs) | median ms | min ms | max ms |`,
    "|---|---|---|---|",
    ...run.cold.map((c) => `| ${c.processor}${c.processor === "jimp" ? " (worker thread)" : " (libvips)"} | ${ms(c.median)} | ${ms(c.min)} | ${ms(c.max)} |`),
    "",
    "| Through the server | Processor | req/s | p50 ms | p99 ms | max ms | requests | bytes/answer | non-2xx | errors |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...run.servers.flatMap((s) => [
      ["original 200x150 file: `GET /api/v2/images/assets/original/photo-200.jpg`", s.original],
      ["cached variant: `GET /api/v2/images/assets/sizes/200/photo.jpg`", s.cached],
    ].map(([label, f]) => {
      const figures = f as LoadResult;
      return `| ${label as string} | ${s.processor} | ${thousands(figures.requestsPerSecond)} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${ms(figures.max)} | ` +
        `${thousands(figures.requests)} | ${thousands(figures.bytesPerResponse)} | ${figures.non2xx} | ${figures.errors} |`;
    })),
    "",
    "| GET one element (2 loops) | Processor | GETs | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|---|",
    ...run.servers.flatMap((s) => [
      `| idle server, ${options.duration} s | ${s.processor} | ${thousands(s.idle.count)} | ${ms(s.idle.p50)} | ${ms(s.idle.p99)} | ${ms(s.idle.max)} |`,
      `| while 20 cold resizes of the 2000x1500 JPEG run (${s.busy.resizeSeconds.toFixed(1)} s until the last) | ${s.processor} | ${thousands(s.busy.count)} | ${ms(s.busy.p50)} | ${ms(s.busy.p99)} | ${ms(s.busy.max)} |`,
    ]),
    "",
    "- How: a variant is keyed by the source's SHA-256, the resize plan and the format; the first ask computes it once " +
      "(concurrent asks share the computation) and writes it under `<data>/image-cache/`; later asks read that file. " +
      "The cached path still reads the source (to hash it, memoised per file version, and to read its header for the plan), so it does the work of two file reads.",
    "- jimp decodes and encodes in a worker thread (`packages/adapter-images/src/jimp-worker.mjs`), so the event loop keeps answering; " +
      "sharp works on libuv's thread pool. Pick sharp with `LINEAGE_IMAGE_PROCESSOR=sharp` when @lineage/adapter-images-sharp is installed.",
    LATENCY_NOTE,
    "",
  ].join("\n");
}


await session.run(main);
