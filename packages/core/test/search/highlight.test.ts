import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../src/search/analyzer.ts";
import { highlight } from "../../src/search/highlight.ts";
import { parseSearchQuery } from "../../src/search/search-query.ts";

const fr = analyzerFor("french");
const en = analyzerFor("english");
const cut = (text: string, q: string, analyzer = en) => highlight(text, parseSearchQuery(q, analyzer), analyzer);

describe("highlight", () => {
  it("wraps stemmed matches, keeping their casing", () => {
    expect(cut("La lionne et le Lion dorment.", "lion", fr)).toBe("La [[[lionne]]] et le [[[Lion]]] dorment");
    expect(cut("Saumons fumés et saumon frais", "saumon", fr)).toBe("[[[Saumons]]] fumés et [[[saumon]]] frais");
    expect(cut("Running runners run", "runs")).toBe("[[[Running]]] runners [[[run]]]");
  });

  it("matches folded accents and prefixes, never negated terms", () => {
    expect(cut("Un Éléphant au café", "elephant cafe", fr)).toBe("Un [[[Éléphant]]] au [[[café]]]");
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

  it("prefers the window holding the most distinct terms", () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    words[10] = "alpha";
    words[150] = "alpha";
    words[155] = "beta";
    const fragment = cut(words.join(" "), "alpha beta");
    expect(fragment).toContain("[[[alpha]]] w151 w152 w153 w154 [[[beta]]]");
    expect(fragment).not.toContain("w10 ");
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
