import { describe, expect, it } from "vitest";
import type { IndexCoverage, IndexedDocument, SearchIndex } from "../ports/search-index.port.ts";
import { analyzerFor } from "../search/analyzer.ts";
import { parseSearchQuery } from "../search/search-query.ts";

const en = analyzerFor("english");
const doc = (id: number, structure: string, a: string, c = "", extra: Partial<IndexedDocument> = {}): IndexedDocument => ({
  id, structure, terms: { A: en.terms(a), ...(c ? { C: en.terms(c) } : {}) }, ...extra,
});
const q = (text: string) => parseSearchQuery(text, en);
const COVERAGE: IndexCoverage = { fingerprint: "f1", generation: 0, seq: 0 };

/**
 * The SearchIndex contract: the memory fake and every adapter run it.
 * `open` gives an index over a storage that successive calls share, so that
 * what one persisted the next can open (a restart).
 */
export function searchIndexContract(name: string, open: () => SearchIndex): void {
  describe(`SearchIndex contract: ${name}`, () => {
    const filled = () => {
      const index = open();
      index.reset("d", COVERAGE);
      index.upsert("d", [
        doc(1, "ARTICLE", "Bad cats everywhere"),
        doc(2, "ARTICLE", "Good dogs", "cats in small print"),
        doc(3, "NOTE", "The marathon of dogs and cats"),
        doc(4, "NOTE", "Nothing to see"),
      ]);
      return index;
    };
    const ids = (index: SearchIndex, text: string, structures?: string[]) =>
      [...index.search("d", q(text), structures ? { structures } : {})].map((hit) => hit.id);

    it("finds documents holding every term, best first by weight", () => {
      const index = filled();
      expect(ids(index, "cats")).toEqual([1, 3, 2]);
      expect(ids(index, "dogs cats")).toEqual([3, 2]);
      expect(ids(index, "unicorn")).toEqual([]);
    });

    it("combines alternatives, negations and prefixes", () => {
      const index = filled();
      expect(ids(index, "bad or nothing").sort()).toEqual([1, 4]);
      expect(ids(index, "cats -dogs")).toEqual([1]);
      expect(ids(index, "-cats")).toEqual([4]);
      expect(ids(index, "mara*")).toEqual([3]);
      expect(ids(index, "mara* or bad").sort()).toEqual([1, 3]);
    });

    it("answers a phrase with the documents holding all its words (adjacency is the caller's check)", () => {
      const index = filled();
      expect(ids(index, '"dogs cats"').sort()).toEqual([2, 3]);
      expect(ids(index, '"bad unicorn"')).toEqual([]);
      expect(ids(index, 'cats -"dogs cats"').sort()).toEqual([1, 2, 3]);
    });

    it("filters by structure and breaks score ties by id", () => {
      const index = filled();
      expect(ids(index, "cats", ["NOTE"])).toEqual([3]);
      index.upsert("d", [doc(10, "NOTE", "twin"), doc(9, "NOTE", "twin")]);
      expect(ids(index, "twin")).toEqual([9, 10]);
    });

    it("answers the candidates of the index as it was searched, whatever changes while they are iterated", () => {
      const index = filled();
      const iterator = index.search("d", q("cats"))[Symbol.iterator]();
      expect(iterator.next().value?.id).toBe(1);
      index.upsert("d", [doc(5, "NOTE", "Bad cats, bad cats"), doc(3, "NOTE", "No more felines")]);
      index.remove("d", [2]);
      const rest: number[] = [];
      for (let next = iterator.next(); !next.done; next = iterator.next()) rest.push(next.value.id);
      expect(rest).toEqual([3, 2]);
      expect(ids(index, "cats")).toEqual([5, 1]);
    });

    it("leaves the index in place when there is no snapshot to open", async () => {
      const index = filled();
      expect(await index.open("d", { fingerprint: "f1", generation: 7 })).toBeUndefined();
      expect(index.coverage("d")).toEqual(COVERAGE);
      expect(ids(index, "cats")).toEqual([1, 3, 2]);
    });

    it("replaces and removes documents", () => {
      const index = filled();
      index.upsert("d", [doc(1, "ARTICLE", "Now about birds")]);
      expect(ids(index, "bad")).toEqual([]);
      expect(ids(index, "birds")).toEqual([1]);
      index.remove("d", [1, 99]);
      expect(ids(index, "birds")).toEqual([]);
      expect(index.has("d", 1)).toBe(false);
      expect(index.ids("d")).toEqual([2, 3, 4]);
    });

    it("counts documents by structure and files by status", () => {
      const index = filled();
      index.upsert("d", [doc(5, "NOTE", "with files", "", { files: [{ vaultId: 1, status: "D" }, { vaultId: 2, status: "K" }] })]);
      const stats = index.stats("d");
      expect(stats.documents).toEqual({ ARTICLE: 2, NOTE: 3 });
      expect(stats.files).toEqual({ D: 1, K: 1, W: 0 });
    });

    it("keeps domains apart", () => {
      const index = filled();
      index.reset("other", COVERAGE);
      index.upsert("other", [doc(1, "X", "zebra")]);
      expect([...index.search("other", q("cats"))]).toEqual([]);
      expect(ids(index, "zebra")).toEqual([]);
    });

    it("persists with its coverage, and opens only for the same fingerprint and generation", async () => {
      const index = filled();
      index.advance("d", 42);
      await index.persist("d");
      expect(index.stats("d").bytes).toBeGreaterThan(0);
      const restarted = open();
      expect(await restarted.open("d", { fingerprint: "other", generation: 0 })).toBeUndefined();
      expect(await restarted.open("d", { fingerprint: "f1", generation: 1 })).toBeUndefined();
      expect(await restarted.open("d", { fingerprint: "f1", generation: 0 })).toEqual({ ...COVERAGE, seq: 42 });
      expect([...restarted.search("d", q("cats"))].map((h) => h.id)).toEqual([1, 3, 2]);
      expect(restarted.stats("d").documents).toEqual({ ARTICLE: 2, NOTE: 2 });
      restarted.upsert("d", [doc(7, "NOTE", "after restart")]);
      expect([...restarted.search("d", q("restart"))].map((h) => h.id)).toEqual([7]);
    });

    it("stays exact through many replacements and removals, and across a restart", async () => {
      const index = open();
      index.reset("d", COVERAGE);
      const words = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "granite", "harbor"];
      const model = new Map<number, string>();
      let seed = 11;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const text = () => Array.from({ length: 3 + Math.floor(random() * 5) }, () => words[Math.floor(random() * words.length)]).join(" ");
      for (let round = 0; round < 40; round++) {
        const batch = Array.from({ length: 25 }, () => doc(1 + Math.floor(random() * 300), round % 2 ? "ARTICLE" : "NOTE", text()));
        index.upsert("d", batch);
        for (const d of batch) model.set(d.id, d.terms.A!.join(" "));
        const gone = Array.from({ length: 5 }, () => 1 + Math.floor(random() * 300));
        index.remove("d", gone);
        for (const id of gone) model.delete(id);
      }
      const expected = (test: (terms: string[]) => boolean) =>
        [...model].filter(([, t]) => test(t.split(" "))).map(([id]) => id).sort((a, b) => a - b);
      const found = (target: SearchIndex, text: string) => [...target.search("d", q(text))].map((h) => h.id).sort((a, b) => a - b);
      const checks = (target: SearchIndex) => {
        expect(found(target, "amber")).toEqual(expected((t) => t.includes("amber")));
        expect(found(target, "basalt cobalt")).toEqual(expected((t) => t.includes("basalt") && t.includes("cobalt")));
        expect(found(target, "dune -ember")).toEqual(expected((t) => t.includes("dune") && !t.includes("ember")));
        expect(found(target, "fjord or granit*")).toEqual(expected((t) => t.includes("fjord") || t.some((w) => w.startsWith("granit"))));
        expect(target.ids("d")).toEqual([...model.keys()].sort((a, b) => a - b));
      };
      checks(index);
      await index.persist("d");
      const restarted = open();
      expect(await restarted.open("d", { fingerprint: "f1", generation: 0 })).toBeDefined();
      checks(restarted);
    });

    it("replaces a domain's index by one built under another name", () => {
      const index = filled();
      index.reset("d next", { ...COVERAGE, generation: 1 });
      index.upsert("d next", [doc(8, "NOTE", "fresh cats")]);
      expect(ids(index, "cats")).toEqual([1, 3, 2]);
      index.replace("d", "d next");
      expect(ids(index, "cats")).toEqual([8]);
      expect(index.coverage("d")).toEqual({ ...COVERAGE, generation: 1 });
      expect(index.coverage("d next")).toBeUndefined();
    });

    it("forgets a dropped domain", async () => {
      const index = filled();
      await index.persist("d");
      index.drop("d");
      expect(index.coverage("d")).toBeUndefined();
      expect(await open().open("d", { fingerprint: "f1", generation: 0 })).toBeUndefined();
    });

    it("forgets a domain dropped while its snapshot is being written", async () => {
      const index = filled();
      const written = index.persist("d");
      index.drop("d");
      await written;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await open().open("d", { fingerprint: "f1", generation: 0 })).toBeUndefined();
    });
  });
}
