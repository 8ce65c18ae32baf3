import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/*
 * A bundle (spec/bundle.md) of N Smart Elements of one structure,
 * BENCH_ARTICLE, for the benchmarks. Deterministic: the same count gives the
 * same bytes (seeded PRNG, fixed vocabulary, no clock).
 *
 *   pnpm exec tsx bench/generate-bundle.ts [--count 100000] [--out bench-bundle.json]
 */

export const BENCH_STRUCTURE = "BENCH_ARTICLE";
/** The admin account of the bundle, for Basic auth. */
export const BENCH_LOGIN = "bench";
export const BENCH_PASSWORD = "bench-pw";
/** A plain account: no role. */
export const READER_LOGIN = "reader";
export const READER_PASSWORD = "reader-pw";

const KINDS = ["news", "review", "opinion", "feature", "interview"] as const;

const VOCABULARY = (
  "the a of and to in is for on with as by at from that this it be are was were has have had not but or " +
  "river stone market harbor signal engine garden winter summer bridge letter mountain village station " +
  "archive council record ledger portrait lantern orchard meadow valley tower window street corner " +
  "morning evening season journey message answer question number system network server window table " +
  "quiet bright early late small large ancient modern simple careful steady rapid gentle narrow open " +
  "public private local northern southern eastern western central final first second third " +
  "builds carries finds keeps opens reads writes sends holds moves turns grows shows brings leaves " +
  "reports describes follows measures compares explains records returns changes prepares collects " +
  "people teacher farmer builder writer reader editor keeper traveler neighbor student visitor " +
  "because while after before during across between under over through without within around"
).split(" ");

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `count` words joined by spaces, the first capitalized. */
function phrase(random: () => number, count: number): string {
  let text = capitalize(pick(random, VOCABULARY));
  for (let i = 1; i < count; i++) text += ` ${pick(random, VOCABULARY)}`;
  return text;
}

/** A body of 200 to 400 words in sentences of 6 to 18 words. */
function body(random: () => number): { text: string; words: number } {
  const target = between(random, 200, 400);
  let text = "";
  for (let written = 0; written < target;) {
    const length = Math.min(between(random, 6, 18), target - written);
    text += `${written === 0 ? "" : " "}${phrase(random, length)}.`;
    written += length;
  }
  return { text, words: target };
}

function date(random: () => number): string {
  const day = new Date(Date.UTC(2000, 0, 1) + between(random, 0, 9000) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

/** The logical name of the i-th element (1-based): BENCH_ART_000001. */
export const elementName = (index: number) => `BENCH_ART_${String(index).padStart(6, "0")}`;

/** Everything but the elements: accounts, the enumerate, the structure. */
export function bundleHead() {
  return {
    accounts: {
      users: [
        { login: BENCH_LOGIN, password: BENCH_PASSWORD, roles: ["admin"], locale: "en" },
        { login: READER_LOGIN, password: READER_PASSWORD, locale: "en" },
      ],
    },
    enumerates: {
      BENCH_KIND: KINDS.map((key) => ({ key, label: capitalize(key) })),
    },
    structures: [
      {
        name: BENCH_STRUCTURE,
        title: { en: "Benchmark article" },
        titleField: "ba_title",
        fields: [
          { id: "ba_title", type: "text", label: "Title", needed: true },
          { id: "ba_body", type: "longtext", label: "Body" },
          { id: "ba_words", type: "int", label: "Words" },
          { id: "ba_date", type: "date", label: "Date" },
          { id: "ba_kind", type: "enum", enum: "BENCH_KIND", label: "Kind" },
        ],
      },
    ],
  };
}

/** The i-th element entry (1-based), from the shared PRNG. */
export function benchElement(index: number, random: () => number) {
  const { text, words } = body(random);
  return {
    structure: BENCH_STRUCTURE,
    name: elementName(index),
    owner: BENCH_LOGIN,
    values: {
      ba_title: `${phrase(random, between(random, 3, 7))} ${index}`,
      ba_body: text,
      ba_words: words,
      ba_date: date(random),
      ba_kind: pick(random, KINDS),
    },
  };
}

export interface GenerateOptions {
  readonly count?: number;
  readonly seed?: number;
}

/**
 * Writes the bundle to `file`, element by element (a 100k bundle is ~200 MB:
 * never held as one string). Returns the bytes written.
 * @example
 * writeBenchBundle("/tmp/bundle.json", { count: 1000 });
 */
export function writeBenchBundle(file: string, options: GenerateOptions = {}): number {
  const count = options.count ?? 100_000;
  const random = createRandom(options.seed ?? 0x5eed);
  const head = JSON.stringify(bundleHead());
  const fd = openSync(file, "w");
  let bytes = 0;
  const write = (text: string) => {
    bytes += writeSync(fd, text);
  };
  try {
    write(`${head.slice(0, -1)},"elements":[`);
    let chunk: string[] = [];
    for (let i = 1; i <= count; i++) {
      chunk.push(JSON.stringify(benchElement(i, random)));
      if (chunk.length === 1000 || i === count) {
        write(`${i > chunk.length ? "," : ""}\n${chunk.join(",\n")}`);
        chunk = [];
      }
    }
    write("\n]}\n");
  } finally {
    closeSync(fd);
  }
  return bytes;
}

function parseCount(raw: string | undefined): number {
  const count = Number(raw ?? "100000");
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--count takes a positive integer, not "${raw}"`);
  return count;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { count: { type: "string" }, out: { type: "string" }, seed: { type: "string" } } });
  const out = resolve(values.out ?? "bench-bundle.json");
  const started = performance.now();
  const bytes = writeBenchBundle(out, { count: parseCount(values.count), ...(values.seed ? { seed: Number(values.seed) } : {}) });
  console.log(`${out}: ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
