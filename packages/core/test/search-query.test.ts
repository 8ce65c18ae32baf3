import { describe, expect, it } from "vitest";
import { analyzerFor } from "../src/search/analyzer.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import { matchesQuery, parseSearchQuery, termPositions, type QueryLiteral } from "../src/search/search-query.ts";

const term = (t: string, negated = false): QueryLiteral => ({ kind: "term", term: t, negated });
const prefix = (p: string, negated = false): QueryLiteral => ({ kind: "prefix", prefix: p, negated });
const phrase = (terms: (string | null)[], negated = false): QueryLiteral => ({ kind: "phrase", terms, negated });

describe("parseSearchQuery (original-notes.md 2.11)", () => {
  it.each<[string, string, QueryLiteral[][]]>([
    ["english", "the bad -cats", [[term("bad"), term("cat", true)]]],
    ["english", "the dogs or cats", [[term("dog")], [term("cat")]]],
    ["english", 'the "bad cats"', [[phrase(["bad", "cat"])]]],
    ["english", 'signal -"segmentation fault"', [[term("signal"), phrase(["segment", "fault"], true)]]],
    ["french", "les cale*", [[term("le"), prefix("cale")]]],
    ["simple", "les mar* -truite -saumon", [[term("les"), prefix("mar"), term("truite", true), term("saumon", true)]]],
    ["simple", "les truites or -saumon", [[term("les"), term("truites")], [term("saumon", true)]]],
    ["simple", "les cale*ons", [[term("les"), term("cale"), term("ons")]]],
    ["english", "Éléphant CAFÉ", [[term("eleph"), term("cafe")]]],
    ["english", "l'avion", [[term("l"), term("avion")]]],
    ["english", '"bad the cats"', [[phrase(["bad", null, "cat"])]]],
    ["english", "-e-mail", [[phrase(["e", "mail"], true)]]],
    ["english", "the", []],
  ])("%s: %s", (stem, q, groups) => {
    expect(parseSearchQuery(q, analyzerFor(stem)).groups).toEqual(groups);
  });

  it.each<[string, RegExp]>([
    ['"unclosed phrase', /quote is not closed/],
    ["cats -", /"-" must be followed/],
    ["or cats", /"or" must come between two terms/],
    ["cats or", /"or" must come between two terms/],
    ["cats or or dogs", /"or" must come between two terms/],
    ["OR", /"or" must come between two terms/],
    ["*", /a prefix needs letters/],
    ['""', /phrase has no word/],
    ["%%%", /has no word/],
    ["x ".repeat(600), /at most 1000 characters/],
    [Array.from({ length: 70 }, (_, i) => `w${i}`).join(" "), /at most 64 terms/],
  ])("refuses %j with FSEA0003 (400)", (q, message) => {
    let caught: unknown;
    try {
      parseSearchQuery(q, analyzerFor("english"));
    } catch (error) {
      caught = error;
    }
    expect(isLineageError(caught) && caught.code).toBe("FSEA0003");
    expect((caught as Error).message).toMatch(message);
  });
});

describe("matchesQuery", () => {
  const en = analyzerFor("english");
  const text = (s: string) => termPositions(en.tokens(s));
  const matches = (q: string, s: string) => matchesQuery(parseSearchQuery(q, en), text(s));

  it("needs every plain term, any group, none of the negations", () => {
    expect(matches("bad cats", "Cats are bad")).toBe(true);
    expect(matches("bad cats", "Cats are good")).toBe(false);
    expect(matches("bad -cats", "bad dogs")).toBe(true);
    expect(matches("bad -cats", "bad cat")).toBe(false);
    expect(matches("dogs or cats", "a cat")).toBe(true);
    expect(matches("-cats", "a dog")).toBe(true);
  });

  it("matches phrases in a row, stop words holding their place", () => {
    expect(matches('"segmentation fault"', "a Segmentation Fault occurred")).toBe(true);
    expect(matches('"segmentation fault"', "fault of the segmentation")).toBe(false);
    expect(matches('"bad the cats"', "bad the cats")).toBe(true);
    expect(matches('signal -"segmentation fault"', "signal: fault in segmentation")).toBe(true);
    expect(matches('signal -"segmentation fault"', "signal: segmentation fault")).toBe(false);
  });

  it("matches prefixes on the indexed terms", () => {
    expect(matches("mara*", "the Marathon")).toBe(true);
    expect(matches("mara*", "the race")).toBe(false);
  });
});
