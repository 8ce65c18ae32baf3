import { stemmer as englishStemmer } from "@orama/stemmers/english";
import { stemmer as frenchStemmer } from "@orama/stemmers/french";
import { STOP_WORDS } from "./stop-words.ts";

/** One word of a text: where it is, and the term it is indexed as (null for a stop word). */
export interface TextToken {
  readonly start: number;
  readonly end: number;
  readonly term: string | null;
}

/**
 * How a domain turns text into terms: words are lower-cased, accents folded,
 * stop words dropped and the rest stemmed. Queries and highlights use the
 * same analyzer, so a stemmed match (lion, lionne) highlights.
 */
export interface Analyzer {
  /** The stemming configuration it applies. */
  readonly stem: string;
  /** The words of a text with their terms, in order. */
  tokens(text: string): TextToken[];
  /** The indexed terms of a text, in order, stop words left out. */
  terms(text: string): string[];
  /** The term of one word; null for a stop word. */
  term(word: string): string | null;
  /** A word folded but not stemmed: what a prefix (`mar*`) is matched with. */
  fold(word: string): string;
}

/** Stemming configurations: the original's Postgres text search configurations. */
export const STEM_CONFIGURATIONS = ["english", "french", "simple"] as const;

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

const STEMMERS: Readonly<Record<string, { stem: (word: string) => string; stopWords: ReadonlySet<string> }>> = {
  english: { stem: englishStemmer, stopWords: STOP_WORDS.english },
  french: { stem: frenchStemmer, stopWords: STOP_WORDS.french },
  simple: { stem: (word) => word, stopWords: new Set() },
};

const ALIASES: Readonly<Record<string, string>> = { en: "english", fr: "french", "": "simple", none: "simple" };

/** The configuration a `stem` setting names; unknown names fall back to simple. */
export function stemConfiguration(stem: string | undefined): (typeof STEM_CONFIGURATIONS)[number] {
  const name = (stem ?? "").toLowerCase();
  const resolved = ALIASES[name] ?? name;
  return (STEM_CONFIGURATIONS as readonly string[]).includes(resolved) ? (resolved as (typeof STEM_CONFIGURATIONS)[number]) : "simple";
}

/** Lower case, accents removed (é becomes e, œ stays). */
export function foldWord(word: string): string {
  return word.normalize("NFD").replace(MARKS, "").toLowerCase();
}

const analyzers = new Map<string, Analyzer>();

/** The analyzer of a stemming configuration (english, french, simple; en and fr too). Shared and memoised. */
export function analyzerFor(stem: string | undefined): Analyzer {
  const name = stemConfiguration(stem);
  let analyzer = analyzers.get(name);
  if (!analyzer) analyzers.set(name, (analyzer = createAnalyzer(name)));
  return analyzer;
}

function createAnalyzer(name: string): Analyzer {
  const { stem, stopWords } = STEMMERS[name] ?? STEMMERS.simple!;
  // Stemming is the costly part of indexing, and a corpus repeats its words.
  const cache = new Map<string, string | null>();
  const term = (word: string): string | null => {
    let result = cache.get(word);
    if (result !== undefined) return result;
    const folded = foldWord(word);
    result = stopWords.has(folded) ? null : stem(folded);
    if (cache.size > 200_000) cache.clear();
    cache.set(word, result);
    return result;
  };
  return {
    stem: name,
    term,
    fold: foldWord,
    tokens(text) {
      const tokens: TextToken[] = [];
      for (const match of text.matchAll(WORD)) {
        tokens.push({ start: match.index, end: match.index + match[0].length, term: term(match[0]) });
      }
      return tokens;
    },
    terms(text) {
      const terms: string[] = [];
      for (const match of text.matchAll(WORD)) {
        const t = term(match[0]);
        if (t !== null) terms.push(t);
      }
      return terms;
    },
  };
}
