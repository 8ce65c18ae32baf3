import { LineageError } from "../errors/lineage-error.ts";
import type { Analyzer, TextToken } from "./analyzer.ts";

/**
 * One condition of a query. Terms are analysed (folded, stemmed); a phrase
 * keeps null for its stop words, which still take a position.
 */
export type QueryLiteral =
  | { readonly kind: "term"; readonly term: string; readonly negated: boolean }
  | { readonly kind: "prefix"; readonly prefix: string; readonly negated: boolean }
  | { readonly kind: "phrase"; readonly terms: readonly (string | null)[]; readonly negated: boolean };

/** A parsed query: any of the groups, each group all of its literals (`a b or c` is (a and b) or c). */
export interface SearchQuery {
  readonly groups: readonly (readonly QueryLiteral[])[];
}

/** The longest query accepted, in characters, and the most literals. */
export const MAX_QUERY_LENGTH = 1000;
export const MAX_QUERY_LITERALS = 64;

const refuse = (q: string, why: string) => new LineageError("FSEA0003", [q, why]);

interface Chunk {
  readonly text: string;
  readonly quoted: boolean;
  readonly negated: boolean;
}

/** Splits a query into chunks (words, quoted phrases, `or`), as the original's patternToTsquery does. */
function chunks(q: string): (Chunk | "or")[] {
  const text = q.replaceAll("'", " ");
  const result: (Chunk | "or")[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) { i++; continue; }
    let negated = false;
    if (text[i] === "-") {
      negated = true;
      i++;
      if (i >= text.length || /\s/.test(text[i]!)) throw refuse(q, '"-" must be followed by a word or a "phrase"');
    }
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close === -1) throw refuse(q, "a quote is not closed");
      result.push({ text: text.slice(i + 1, close), quoted: true, negated });
      i = close + 1;
      continue;
    }
    let end = i;
    while (end < text.length && !/\s/.test(text[end]!) && text[end] !== '"') end++;
    const word = text.slice(i, end);
    i = end;
    if (!negated && word.toLowerCase() === "or") result.push("or");
    else result.push({ text: word, quoted: false, negated });
  }
  return result;
}

/** The literals of one chunk: a phrase, a prefix (`mar*`), or plain words. */
function literals(q: string, chunk: Chunk, analyzer: Analyzer): QueryLiteral[] {
  const { negated } = chunk;
  if (chunk.quoted) {
    const terms = analyzer.tokens(chunk.text).map((token) => token.term);
    if (terms.length === 0) throw refuse(q, "a quoted phrase has no word");
    const words = terms.filter((t): t is string => t !== null);
    if (words.length === 0) return [];
    if (terms.length === 1) return [{ kind: "term", term: words[0]!, negated }];
    return [{ kind: "phrase", terms: trimNulls(terms), negated }];
  }
  const prefix = /^(.*?)([\p{L}\p{N}]+)\*$/u.exec(chunk.text);
  const plain = prefix ? prefix[1]! : chunk.text;
  const terms = analyzer.tokens(plain).map((token) => token.term);
  if (terms.length === 0 && !prefix) {
    throw refuse(q, chunk.text.includes("*") ? `"${chunk.text}": a prefix needs letters before "*"` : `"${chunk.text}" has no word`);
  }
  const result: QueryLiteral[] = [];
  if (negated && terms.length > 1) {
    // `-e-mail` excludes the compound, not each of its words.
    if (terms.some((t) => t !== null)) result.push({ kind: "phrase", terms: trimNulls(terms), negated });
  } else {
    for (const term of terms) if (term !== null) result.push({ kind: "term", term, negated });
  }
  if (prefix) result.push({ kind: "prefix", prefix: analyzer.fold(prefix[2]!), negated });
  return result;
}

function trimNulls(terms: (string | null)[]): (string | null)[] {
  let start = 0;
  let end = terms.length;
  while (start < end && terms[start] === null) start++;
  while (end > start && terms[end - 1] === null) end--;
  return terms.slice(start, end);
}

/**
 * Parses the query language (original-notes.md 2.11): words are all
 * required, `or` separates alternatives, `-word` or `-"phrase"` excludes,
 * `"a phrase"` needs the words in a row, `word*` matches a prefix.
 * Stop words are dropped; a query left with nothing matches nothing.
 * Malformed queries are refused with FSEA0003 (400).
 * @example
 * parseSearchQuery('the bad -cats', analyzerFor("english")) // bad AND NOT cat
 */
export function parseSearchQuery(q: string, analyzer: Analyzer): SearchQuery {
  if (q.length > MAX_QUERY_LENGTH) throw refuse(q.slice(0, 40) + "...", `a query has at most ${MAX_QUERY_LENGTH} characters`);
  const groups: QueryLiteral[][] = [[]];
  let previous: Chunk | "or" | undefined;
  let count = 0;
  for (const chunk of chunks(q)) {
    if (chunk === "or") {
      if (previous === undefined || previous === "or") throw refuse(q, '"or" must come between two terms');
      groups.push([]);
    } else {
      const found = literals(q, chunk, analyzer);
      count += found.length;
      groups[groups.length - 1]!.push(...found);
    }
    previous = chunk;
  }
  if (previous === "or") throw refuse(q, '"or" must come between two terms');
  if (count > MAX_QUERY_LITERALS) throw refuse(q, `a query has at most ${MAX_QUERY_LITERALS} terms`);
  return { groups: groups.filter((group) => group.length > 0) };
}

/** True when the query has nothing to look for (empty, or stop words only). */
export function isEmptyQuery(query: SearchQuery): boolean {
  return query.groups.length === 0;
}

/** A text's terms by position, for exact matching. */
export interface TermPositions {
  readonly terms: readonly (string | null)[];
  readonly set: ReadonlySet<string>;
}

/** The positions of a token list. */
export function termPositions(tokens: readonly TextToken[]): TermPositions {
  const terms = tokens.map((t) => t.term);
  return { terms, set: new Set(terms.filter((t): t is string => t !== null)) };
}

function phraseAt(text: TermPositions, phrase: readonly (string | null)[]): boolean {
  const first = phrase[0];
  outer: for (let i = 0; i + phrase.length <= text.terms.length; i++) {
    if (text.terms[i] !== first) continue;
    for (let k = 1; k < phrase.length; k++) {
      const want = phrase[k];
      if (want !== null && text.terms[i + k] !== want) continue outer;
    }
    return true;
  }
  return false;
}

/** Whether one literal holds for a text, negation aside. */
export function literalHolds(literal: QueryLiteral, text: TermPositions): boolean {
  switch (literal.kind) {
    case "term": return text.set.has(literal.term);
    case "prefix": {
      for (const term of text.set) if (term.startsWith(literal.prefix)) return true;
      return false;
    }
    case "phrase": return literal.terms.every((t) => t === null || text.set.has(t)) && phraseAt(text, literal.terms);
  }
}

/** Whether a text matches a query exactly (phrases in a row). */
export function matchesQuery(query: SearchQuery, text: TermPositions): boolean {
  return query.groups.some((group) => group.every((literal) => literalHolds(literal, text) !== literal.negated));
}

/** True when matching needs the text itself: the index answers phrases approximately. */
export function needsTextCheck(query: SearchQuery): boolean {
  return query.groups.some((group) => group.some((literal) => literal.kind === "phrase"));
}
