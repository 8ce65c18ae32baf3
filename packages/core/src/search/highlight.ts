import type { Analyzer } from "./analyzer.ts";
import type { SearchQuery } from "./search-query.ts";

/** How a highlight is cut: Postgres' ts_headline defaults, with its [[[ ]]] selection marks. */
export interface HighlightOptions {
  readonly maxWords?: number;
  readonly minWords?: number;
  readonly startSel?: string;
  readonly stopSel?: string;
}

/** A predicate per positive literal telling whether a token is one it looks for (a phrase by its words, as ts_headline). */
function literalMatchers(query: SearchQuery): { readonly groups: number[][]; readonly tests: ((term: string) => boolean)[] } {
  const tests: ((term: string) => boolean)[] = [];
  const groups: number[][] = [];
  for (const group of query.groups) {
    const ids: number[] = [];
    for (const literal of group) {
      if (literal.negated) continue;
      if (literal.kind === "term") tests.push((term) => term === literal.term);
      else if (literal.kind === "prefix") tests.push((term) => term.startsWith(literal.prefix));
      else {
        const words = new Set(literal.terms.filter((t): t is string => t !== null));
        tests.push((term) => words.has(term));
      }
      ids.push(tests.length - 1);
    }
    groups.push(ids);
  }
  return { groups: groups.filter((ids) => ids.length > 0), tests };
}

/**
 * One fragment of `text` for a query, chosen where Postgres' ts_headline chooses it with the
 * original's options (`MaxFragments=1`, MaxWords 35, MinWords 15, ShortWord 3): the fragment
 * of a cover (a shortest run of words satisfying the query) holding the most query words, the
 * shortest on ties, the first on ties again; stretched evenly on both sides up to MaxWords,
 * words of 3 bytes or less dropped at its ends. Every query word in it (stemmed matches
 * included; never a stop word, which has no term) is wrapped in `[[[` `]]]` with its own
 * casing. Without a cover, the text's first MinWords words.
 * @example
 * highlight("Lionnes et lions", parseSearchQuery("lion", fr), fr) // "[[[Lionnes]]] et [[[lions]]]"
 */
export function highlight(text: string, query: SearchQuery, analyzer: Analyzer, options: HighlightOptions = {}): string {
  const maxWords = options.maxWords ?? 35;
  const minWords = options.minWords ?? 15;
  const startSel = options.startSel ?? "[[[";
  const stopSel = options.stopSel ?? "]]]";
  const tokens = analyzer.tokens(text);
  if (tokens.length === 0) return "";
  const { groups, tests } = literalMatchers(query);
  const hits = tokens.map((token) => (token.term === null ? [] : tests.flatMap((test, id) => (test(token.term!) ? [id] : []))));
  const isShort = (i: number) => utf8Length(text, tokens[i]!.start, tokens[i]!.end) <= SHORT_WORD;
  const fragment = bestFragment(covers(hits, groups, tests.length), hits, maxWords);
  const [from, to] = fragment ? stretch(fragment, tokens.length, maxWords, isShort) : [0, Math.min(tokens.length, minWords) - 1];
  let out = "";
  for (let i = from; i <= to; i++) {
    const token = tokens[i]!;
    const word = text.slice(token.start, token.end);
    if (i > from) out += separator(text.slice(tokens[i - 1]!.end, token.start));
    out += hits[i]!.length > 0 ? `${startSel}${word}${stopSel}` : word;
  }
  return out;
}

/** ts_headline's ShortWord: words of this many bytes or less do not end a fragment. */
const SHORT_WORD = 3;

/** The UTF-8 length of text[start, end): Postgres measures words in bytes. */
function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) { bytes += 4; i++; }
    else bytes += 3;
  }
  return bytes;
}

/** The text between two words, on one line: punctuation kept, spacing collapsed. */
function separator(between: string): string {
  const collapsed = between.replace(/\s+/g, " ");
  return collapsed === "" ? " " : collapsed;
}

type Span = readonly [from: number, to: number];

/**
 * The covers of a text: each the shortest run of words, from a start on, that satisfies the
 * query (some group with every positive literal in it), then started as late as it can be.
 * The next cover is looked for from the word after a cover's start. Linear in the matches.
 */
function covers(hits: readonly (readonly number[])[], groups: readonly (readonly number[])[], literals: number): Span[] {
  const positions = hits.flatMap((ids, i) => (ids.length > 0 ? [i] : []));
  const counts = new Int32Array(literals);
  const satisfied = () => groups.some((ids) => ids.every((id) => counts[id]! > 0));
  const add = (i: number, by: number) => { for (const id of hits[i]!) counts[id]! += by; };
  const found: Span[] = [];
  let a = 0;
  let b = 0;
  for (;;) {
    while (b < positions.length && !satisfied()) add(positions[b++]!, 1);
    if (!satisfied()) break;
    for (;;) {
      add(positions[a]!, -1);
      if (!satisfied()) { add(positions[a]!, 1); break; }
      a++;
    }
    found.push([positions[a]!, positions[b - 1]!]);
    add(positions[a++]!, -1);
  }
  return found;
}

/**
 * The covers cut in fragments of at most maxWords words each starting and ending on a query
 * word, and the best of them: the most query words, then the fewest words, then the first.
 */
function bestFragment(spans: readonly Span[], hits: readonly (readonly number[])[], maxWords: number): Span | undefined {
  let best: { span: Span; items: number; words: number } | undefined;
  for (const [coverFrom, coverTo] of spans) {
    let from = coverFrom;
    while (from <= coverTo) {
      while (from < coverTo && hits[from]!.length === 0) from++;
      let to = Math.min(coverTo, from + maxWords - 1);
      while (to > from && hits[to]!.length === 0) to--;
      let items = 0;
      for (let i = from; i <= to; i++) if (hits[i]!.length > 0) items++;
      const words = to - from + 1;
      if (!best || items > best.items || (items === best.items && words < best.words)) best = { span: [from, to], items, words };
      from = to + 1;
    }
  }
  return best?.span;
}

/** A fragment widened to maxWords: half the room before it, the rest after, short words trimmed off its new ends. */
function stretch([from, to]: Span, length: number, maxWords: number, isShort: (i: number) => boolean): Span {
  let words = to - from + 1;
  if (words >= maxWords) return [from, to];
  const room = Math.floor((maxWords - words) / 2);
  let start = from;
  for (let stretched = 0; start > 0 && stretched < room; stretched++) { start--; words++; }
  while (start < from && isShort(start)) { start++; words--; }
  let end = to;
  while (end + 1 < length && words < maxWords) { end++; words++; }
  while (end > to && isShort(end)) end--;
  return [start, end];
}
