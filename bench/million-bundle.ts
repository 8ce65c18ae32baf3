import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_LOGIN, BENCH_PASSWORD, createRandom } from "./generate-bundle.ts";

/*
 * The bundle of the 1,000,000-element benchmark (issue 18): one structure with two short text
 * fields, a search domain over both, and the benchmark's admin account. Deterministic (seeded
 * PRNG, no clock). The texts hold what the search measurements need: COMMON_TERM in 80 % of the
 * elements, RARE_TERM in one element of 100,000, and the words of PHRASE in a row in 1 %.
 */

export const MILLION_STRUCTURE = "MILLION_NOTE";
export const MILLION_DOMAIN = "million";
export const COMMON_TERM = "common";
export const RARE_TERM = "zeppelin";
export const PHRASE = "river stone";

const WORDS = (
  "river stone market harbor signal engine garden winter summer bridge letter mountain village station " +
  "archive council record ledger portrait lantern orchard meadow valley tower window street corner " +
  "morning evening season journey message answer question number system network server table " +
  "quiet bright early late small large ancient modern simple careful steady rapid gentle narrow open " +
  "builds carries finds keeps opens reads writes sends holds moves turns grows shows brings leaves " +
  "people teacher farmer builder writer reader editor keeper traveler neighbor student visitor"
).split(" ");

const pick = (random: () => number) => WORDS[Math.floor(random() * WORDS.length)] as string;
function words(random: () => number, count: number): string {
  let text = pick(random);
  for (let i = 1; i < count; i++) text += ` ${pick(random)}`;
  return text;
}
const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

/** The logical name of the i-th element (1-based): MN_0000001. */
export const millionName = (index: number) => `MN_${String(index).padStart(7, "0")}`;

/** Everything but the elements. */
export function millionHead() {
  return {
    accounts: { users: [{ login: BENCH_LOGIN, password: BENCH_PASSWORD, roles: ["admin"], locale: "en" }] },
    structures: [{
      name: MILLION_STRUCTURE,
      title: "Million note",
      titleField: "mn_title",
      fields: [{ id: "mn_title", type: "text", label: "Title" }, { id: "mn_text", type: "text", label: "Text" }],
    }],
    searchDomains: [{
      name: MILLION_DOMAIN, stem: "english",
      configs: [{ structure: MILLION_STRUCTURE, fields: [{ field: "mn_title", weight: "A" }, { field: "mn_text", weight: "B" }] }],
    }],
  };
}

/**
 * The i-th element entry (1-based), from the shared PRNG: a title of 3 to 6 words and a text of
 * 20 to 36 words and the terms above, or of exactly `textWords` words, those terms included.
 */
export function millionElement(index: number, random: () => number, textWords?: number) {
  if (textWords !== undefined) return fixedLengthElement(index, random, textWords);
  const parts = [words(random, between(random, 20, 36))];
  if (random() < 0.8) parts.push(COMMON_TERM);
  if (random() < 0.01) parts.push(PHRASE);
  if (index % 100_000 === 1) parts.push(RARE_TERM);
  parts.push(words(random, 2));
  return {
    structure: MILLION_STRUCTURE,
    name: millionName(index),
    values: { mn_title: `${words(random, between(random, 3, 6))} ${index}`, mn_text: parts.join(" ") },
  };
}

// The terms are drawn first, so that the text's other words fill it up to its length.
function fixedLengthElement(index: number, random: () => number, textWords: number) {
  const terms: string[] = [];
  if (random() < 0.8) terms.push(COMMON_TERM);
  if (random() < 0.01) terms.push(PHRASE);
  if (index % 100_000 === 1) terms.push(RARE_TERM);
  const termWords = terms.reduce((sum, term) => sum + term.split(" ").length, 0);
  const text = [words(random, Math.max(1, textWords - termWords - 2)), ...terms, words(random, 2)].join(" ");
  return {
    structure: MILLION_STRUCTURE,
    name: millionName(index),
    values: { mn_title: `${words(random, between(random, 3, 6))} ${index}`, mn_text: text },
  };
}

export interface MillionBundleOptions {
  readonly count: number;
  /** Every text exactly this many words long (see millionElement); by default about 20 to 40. */
  readonly textWords?: number;
  /** Where the elements go among the keys: after the definitions (as most tools write), or before them. */
  readonly elementsFirst?: boolean;
}

/** Writes the bundle to `file`, a thousand elements per write; returns the bytes written. */
export function writeMillionBundle(file: string, options: MillionBundleOptions): number {
  const random = createRandom(0x1e6);
  const head = JSON.stringify(millionHead()).slice(1, -1);
  const fd = openSync(file, "w");
  let bytes = 0;
  const write = (text: string) => {
    bytes += writeSync(fd, text);
  };
  try {
    write(options.elementsFirst ? `{"elements":[` : `{${head},"elements":[`);
    let chunk: string[] = [];
    for (let i = 1; i <= options.count; i++) {
      chunk.push(JSON.stringify(millionElement(i, random, options.textWords)));
      if (chunk.length === 1000 || i === options.count) {
        write(`${i > chunk.length ? "," : ""}\n${chunk.join(",\n")}`);
        chunk = [];
      }
    }
    write(options.elementsFirst ? `\n],${head}}\n` : "\n]}\n");
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/**
 * The bundle of `count` elements, written once under the system's temporary folder and found there
 * by the runs after (the same options always write the same bytes); answers its path.
 */
export function cachedMillionBundle(options: MillionBundleOptions): string {
  const dir = join(tmpdir(), "lineage-bench-bundles");
  const file = join(dir, `million-${options.count}-${options.textWords ?? "short"}${options.elementsFirst ? "-elements-first" : ""}.json`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Renamed once whole: a run stopped while writing leaves no partial bundle under the name.
  const partial = `${file}.${process.pid}.partial`;
  writeMillionBundle(partial, options);
  renameSync(partial, file);
  return file;
}

export const LARGE_STRUCTURE = "LARGE_NOTE";

/**
 * A bundle past the longest string V8 makes (0x1fffffe8 characters, about 537 MB), which no
 * JSON.parse of the whole file can read: `count` elements with a body of about `bodyBytes`
 * (a longtext, which has no list index). Returns the bytes written.
 */
export function writeLargeBundle(file: string, count: number, bodyBytes: number): number {
  const random = createRandom(0x1a76e);
  const head = JSON.stringify({
    structures: [{
      name: LARGE_STRUCTURE, titleField: "ln_title",
      fields: [{ id: "ln_title", type: "text", label: "Title" }, { id: "ln_body", type: "longtext", label: "Body" }],
    }],
  }).slice(1, -1);
  const fd = openSync(file, "w");
  let bytes = 0;
  try {
    bytes += writeSync(fd, `{${head},"elements":[`);
    for (let i = 1; i <= count; i++) {
      let body = words(random, 40);
      while (body.length < bodyBytes) body += ` ${words(random, 40)}`;
      const element = { structure: LARGE_STRUCTURE, name: `LN_${String(i).padStart(7, "0")}`, values: { ln_title: `${words(random, 4)} ${i}`, ln_body: body } };
      bytes += writeSync(fd, `${i > 1 ? "," : ""}\n${JSON.stringify(element)}`);
    }
    bytes += writeSync(fd, "\n]}\n");
  } finally {
    closeSync(fd);
  }
  return bytes;
}
