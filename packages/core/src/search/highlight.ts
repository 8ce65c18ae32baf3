import type { Analyzer, TextToken } from "./analyzer.ts";
import type { SearchQuery } from "./search-query.ts";

/** How a highlight is cut: Postgres' ts_headline defaults, with its [[[ ]]] selection marks. */
export interface HighlightOptions {
  readonly maxWords?: number;
  readonly minWords?: number;
  readonly startSel?: string;
  readonly stopSel?: string;
}

/** A predicate telling whether a token is one the query looks for (negated literals aside). */
function matcher(query: SearchQuery): (token: TextToken) => boolean {
  const terms = new Set<string>();
  const prefixes: string[] = [];
  for (const group of query.groups) {
    for (const literal of group) {
      if (literal.negated) continue;
      if (literal.kind === "term") terms.add(literal.term);
      else if (literal.kind === "prefix") prefixes.push(literal.prefix);
      else for (const term of literal.terms) if (term !== null) terms.add(term);
    }
  }
  return (token) => token.term !== null && (terms.has(token.term) || prefixes.some((p) => token.term!.startsWith(p)));
}

/**
 * One fragment of about `maxWords` words of `text` around the best run of
 * matches, each matched word (stemmed matches included) wrapped in
 * `[[[` `]]]` with its original casing. Without a match, the text's first
 * `minWords` words.
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
  const isMatch = matcher(query);
  const matched = tokens.map(isMatch);
  const [from, to] = bestWindow(tokens, matched, maxWords, minWords);
  let out = "";
  for (let i = from; i < to; i++) {
    const token = tokens[i]!;
    const word = text.slice(token.start, token.end);
    if (i > from) out += separator(text.slice(tokens[i - 1]!.end, token.start));
    out += matched[i] ? `${startSel}${word}${stopSel}` : word;
  }
  return out;
}

/** The text between two words, on one line: punctuation kept, spacing collapsed. */
function separator(between: string): string {
  const collapsed = between.replace(/\s+/g, " ");
  return collapsed === "" ? " " : collapsed;
}

/**
 * The window [from, to) of at most maxWords tokens holding the most distinct
 * matched terms, then the most matches; the earliest on ties. It is then
 * widened on both sides to maxWords so the matches have context.
 */
function bestWindow(tokens: readonly TextToken[], matched: readonly boolean[], maxWords: number, minWords: number): [number, number] {
  const positions = matched.flatMap((m, i) => (m ? [i] : []));
  if (positions.length === 0) return [0, Math.min(tokens.length, minWords)];
  let best = { first: positions[0]!, last: positions[0]!, distinct: 0, count: 0 };
  for (let a = 0; a < positions.length; a++) {
    const distinct = new Set<string>();
    let b = a;
    for (; b < positions.length && positions[b]! - positions[a]! < maxWords; b++) distinct.add(tokens[positions[b]!]!.term!);
    const count = b - a;
    if (distinct.size > best.distinct || (distinct.size === best.distinct && count > best.count)) {
      best = { first: positions[a]!, last: positions[b - 1]!, distinct: distinct.size, count };
    }
  }
  const span = best.last - best.first + 1;
  const before = Math.floor((maxWords - span) / 2);
  let from = Math.max(0, best.first - before);
  const to = Math.min(tokens.length, from + maxWords);
  from = Math.max(0, to - maxWords);
  return [from, to];
}
