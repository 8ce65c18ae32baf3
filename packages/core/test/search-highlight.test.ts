import { describe, expect, it } from "vitest";
import { analyzerFor } from "../src/search/analyzer.ts";
import { highlight } from "../src/search/highlight.ts";
import { parseSearchQuery } from "../src/search/search-query.ts";

const fr = analyzerFor("french");
const en = analyzerFor("english");
const cut = (text: string, q: string, analyzer = en) => highlight(text, parseSearchQuery(q, analyzer), analyzer);

describe("highlight", () => {
  it("wraps stemmed matches, keeping their casing", () => {
    // ts_headline drops words of 3 bytes or less ("La") at a fragment's ends.
    expect(cut("La lionne et le Lion dorment.", "lion", fr)).toBe("[[[lionne]]] et le [[[Lion]]] dorment");
    expect(cut("Saumons fumés et saumon frais", "saumon", fr)).toBe("[[[Saumons]]] fumés et [[[saumon]]] frais");
    // A word of 3 bytes or less never ends a fragment, even a query word.
    expect(cut("Running runners run", "runs")).toBe("[[[Running]]] runners");
    expect(cut("Running runners runs", "runs")).toBe("[[[Running]]] runners [[[runs]]]");
  });

  it("matches folded accents and prefixes, never negated terms", () => {
    expect(cut("Un Éléphant au café", "elephant cafe", fr)).toBe("[[[Éléphant]]] au [[[café]]]");
    expect(cut("marathon and marmalade", "mara*")).toBe("[[[marathon]]] and marmalade");
    expect(cut("cats and dogs", "cats -dogs")).toBe("[[[cats]]] and dogs");
  });

  it("cuts one fragment of 35 words around the matches", () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[120] = "needle";
    const fragment = cut(words.join(" "), "needle");
    const parts = fragment.split(" ");
    expect(parts).toHaveLength(35);
    expect(parts).toContain("[[[needle]]]");
    // The match sits in the middle, with context on both sides.
    expect(parts.indexOf("[[[needle]]]")).toBe(17);
    expect(fragment.startsWith("w103 ")).toBe(true);
  });

  it("prefers the fragment holding the most query words", () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    words[10] = "alpha";
    words[150] = "alpha";
    words[155] = "beta";
    const fragment = cut(words.join(" "), "alpha beta");
    expect(fragment).toContain("[[[alpha]]] w151 w152 w153 w154 [[[beta]]]");
    expect(fragment).not.toContain("w10 ");
  });

  it("chooses as ts_headline does: among fragments with as many query words, the shortest, then the first", () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`);
    words[10] = "alpha";
    words[12] = "beta";
    words[100] = "alpha";
    words[101] = "beta";
    // alpha word11 beta (3 words) and alpha beta (2 words) hold two query words each: the shorter wins,
    // stretched by (35 - 2) / 2 = 16 words before it, the rest after.
    const fragment = cut(words.join(" "), "alpha beta");
    expect(fragment.split(" ")).toHaveLength(35);
    expect(fragment.startsWith("word84 ")).toBe(true);
    expect(fragment).toContain("word99 [[[alpha]]] [[[beta]]] word102");
    words[101] = "word101";
    words[103] = "beta";
    // Now both are 3 words long: the first wins.
    expect(cut(words.join(" "), "alpha beta").startsWith("word0 word1 ")).toBe(true);
  });

  it("cuts a cover longer than 35 words into fragments starting and ending on query words", () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`);
    words[20] = "alpha";
    words[90] = "beta";
    words[95] = "beta";
    const fragment = cut(words.join(" "), "alpha beta");
    // The cover from alpha to the first beta is 71 words: its fragments are [alpha] and [beta];
    // the first fragment with one word wins and is stretched to 35 words.
    expect(fragment.split(" ")).toHaveLength(35);
    expect(fragment).toContain("[[[alpha]]]");
    expect(fragment).not.toContain("beta");
  });

  it("never highlights a stop word of the domain's language, nor starts or ends on a short word", () => {
    expect(cut("Le chat et le chien", "le chat", fr)).toBe("[[[chat]]] et le chien");
    expect(cut("The cat of the house", "the cat")).toBe("[[[cat]]] of the house");
  });

  it("collapses line breaks and keeps punctuation", () => {
    expect(cut("First line.\n\nSecond, with a cat!", "cat")).toBe("First line. Second, with a [[[cat]]]");
  });

  it("gives the first words when nothing matches", () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`).join(" ");
    expect(cut(text, "-w3").split(" ")).toHaveLength(15);
    expect(cut("", "cat")).toBe("");
  });
});
