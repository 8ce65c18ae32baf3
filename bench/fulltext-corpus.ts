import type { Store } from "../packages/core/src/index.ts";
import { createRandom } from "./generate-bundle.ts";

/*
 * The full-text benchmarks' corpus: pseudo-words drawn with a Zipf-like law (rank r has weight 1/r) as
 * natural text is, with a common and a rare term planted at known rates, so that figures from one
 * run compare with the next.
 */

/** Planted in `commonShare` of the bodies. */
export const COMMON = "harbor";
/** Planted in 1 body in 10 000. */
export const RARE = "zephyrine";

const SYLLABLES = "ka lo mi ra su te no vi da pe ro lu sa ki me to na re ba zu fi go ha jo".split(" ");

export interface CorpusShape {
  readonly seed: number;
  /** Fewest and most words of a body. */
  readonly words: readonly [number, number];
  /** The share of bodies that hold COMMON. */
  readonly commonShare: number;
}

export interface CorpusText {
  readonly title: string;
  readonly body: string;
  /** Words of the title and the body. */
  readonly words: number;
}

/** A vocabulary of 20 000 pseudo-words and a drawer of them; `words[0]` is the most frequent. */
export function vocabulary(seed: number) {
  const random = createRandom(seed);
  const words: string[] = [];
  const seen = new Set<string>();
  while (words.length < 20_000) {
    const length = 2 + Math.floor(random() * 3);
    let word = "";
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= words.length; r++) cumulative.push((sum += 1 / r));
  const draw = () => {
    const target = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  return { random, draw, words: words as readonly string[] };
}

/** The texts of elements 0, 1, 2…: a 5-word title and a body of `shape.words` words. */
export function* corpusTexts(shape: CorpusShape, count: number): Generator<CorpusText> {
  const { random, draw } = vocabulary(shape.seed);
  const [fewest, most] = shape.words;
  for (let i = 0; i < count; i++) {
    const length = fewest + Math.floor(random() * (most - fewest + 1));
    const body: string[] = [];
    for (let w = 0; w < length; w++) body.push(draw());
    if (random() < shape.commonShare) body[Math.floor(random() * length)] = COMMON;
    if (i % 10_000 === 5000) body[Math.floor(random() * length)] = RARE;
    const title = Array.from({ length: 5 }, draw).join(" ");
    yield { title, body: body.join(" "), words: length + 5 };
  }
}

/** The structure BENCH_TEXT (title bt_title, body bt_body) and a search domain over it: title weight A, body C, english. */
export async function saveBenchDefinitions(store: Store, domain: string): Promise<void> {
  await store.catalog.saveStructure({
    name: "BENCH_TEXT", titleField: "bt_title",
    fields: [{ id: "bt_title", type: "text" }, { id: "bt_body", type: "longtext" }],
  } as never);
  await store.search.saveDomain({
    name: domain, lang: "en", stem: "english",
    configs: [{ structure: "BENCH_TEXT", fields: [{ field: "bt_title", weight: "A" }, { field: "bt_body", weight: "C" }], files: [], callables: [] }],
  });
}
