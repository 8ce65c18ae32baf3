import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyzerFor, parseSearchQuery, type IndexedDocument } from "@lineage/core";
import { searchIndexContract } from "@lineage/core/testing";
import { createCompactSearchIndex } from "../src/index.ts";
import { countOnce, frequencyOf } from "../src/compact/postings.ts";
import { decodeSnapshot, readSnapshotHeader } from "../src/compact/snapshot-codec.ts";
import { compactDomain } from "../src/compact/compact-domain.ts";
import type { RangedHits } from "../src/compact/ranged-search.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lineage-compact-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

searchIndexContract("compact", () => createCompactSearchIndex({ dir, log: () => {} }));
// Merging after every few postings runs the merge and slot renumbering paths on every step.
searchIndexContract("compact, merging often", () => createCompactSearchIndex({ dir, log: () => {}, mergeAt: 3 }));

const en = analyzerFor("english");
const doc = (id: number, a: string, c = ""): IndexedDocument => ({ id, structure: "NOTE", terms: { A: en.terms(a), C: en.terms(c) } });
const search = (index: ReturnType<typeof createCompactSearchIndex>, text: string) => [...index.search("d", parseSearchQuery(text, en))];

describe("packed frequencies", () => {
  it("count each weight apart, saturating at 255 without spilling into the next weight", () => {
    let packed = 0;
    for (let i = 0; i < 300; i++) packed = countOnce(packed, 2);
    packed = countOnce(packed, 0);
    expect([0, 1, 2, 3].map((w) => frequencyOf(packed, w))).toEqual([1, 0, 255, 0]);
    for (let i = 0; i < 300; i++) packed = countOnce(packed, 3);
    expect(frequencyOf(packed, 3)).toBe(255);
  });
});

describe("compact index relevance", () => {
  it("ranks by weight, then by frequency, then by shortness", () => {
    const index = createCompactSearchIndex({ dir, log: () => {} });
    index.reset("d", { fingerprint: "f", generation: 0, seq: 0 });
    index.upsert("d", [
      doc(1, "other words", "volcano"),
      doc(2, "volcano"),
      doc(3, "other", "volcano volcano volcano"),
      doc(4, "volcano and many other words around it"),
    ]);
    expect(search(index, "volcano").map((h) => h.id)).toEqual([2, 4, 3, 1]);
  });

  it("matches a phrase of hundreds of words", () => {
    const index = createCompactSearchIndex({ dir, log: () => {} });
    index.reset("d", { fingerprint: "f", generation: 0, seq: 0 });
    index.upsert("d", [doc(1, "x marks"), doc(2, "dog")]);
    // 400 literals: more than a byte counts.
    expect(search(index, `"${"x ".repeat(400)}"`).map((h) => h.id)).toEqual([1]);
  });

  it("orders lazily: the first hits come without the rest being ordered, in the same order as all of them", () => {
    const index = createCompactSearchIndex({ dir, log: () => {} });
    index.reset("d", { fingerprint: "f", generation: 0, seq: 0 });
    index.upsert("d", Array.from({ length: 2000 }, (_, i) => doc(i + 1, `common ${"filler ".repeat(i % 17)}`, i % 3 ? "common" : "")));
    const all = search(index, "common");
    expect(all).toHaveLength(2000);
    for (let i = 1; i < all.length; i++) {
      expect(all[i - 1]!.score > all[i]!.score || (all[i - 1]!.score === all[i]!.score && all[i - 1]!.id < all[i]!.id)).toBe(true);
    }
    const iterator = index.search("d", parseSearchQuery("common", en))[Symbol.iterator]();
    expect(Array.from({ length: 10 }, () => iterator.next().value)).toEqual(all.slice(0, 10));
  });
});

describe("compact index snapshots", () => {
  const coverage = { fingerprint: "f", generation: 3, seq: 7 };
  const persisted = async () => {
    const index = createCompactSearchIndex({ dir, log: () => {} });
    index.reset("d", coverage);
    index.upsert("d", [doc(1, "granite harbor"), doc(2, "amber dune", "granite")]);
    await index.persist("d");
    return join(dir, "d.3.lnsx");
  };
  const reopen = async () => {
    const lines: string[] = [];
    const index = createCompactSearchIndex({ dir, log: (line) => lines.push(line) });
    return { opened: await index.open("d", coverage), lines, index };
  };

  it("writes one binary file per domain and generation, removing older generations", async () => {
    const index = createCompactSearchIndex({ dir, log: () => {} });
    index.reset("d", { ...coverage, generation: 2 });
    await index.persist("d");
    index.reset("d", coverage);
    await index.persist("d");
    expect(readdirSync(dir)).toEqual(["d.3.lnsx"]);
    expect(readFileSync(join(dir, "d.3.lnsx")).subarray(0, 8).toString("latin1")).toBe("LNSEARCH");
  });

  it("loads what it wrote", async () => {
    await persisted();
    const { opened, index } = await reopen();
    expect(opened).toEqual(coverage);
    expect(search(index, "granite").map((h) => h.id)).toEqual([1, 2]);
    expect(index.stats("d")).toMatchObject({ documents: { NOTE: 2 } });
  });

  it("decodes a snapshot whatever the alignment of the bytes it is given", async () => {
    const bytes = readFileSync(await persisted());
    const shifted = Buffer.concat([Buffer.alloc(1), bytes]).subarray(1);
    const content = decodeSnapshot(shifted, readSnapshotHeader(shifted));
    expect(content.postings.terms).toEqual(["amber", "dune", "granit", "harbor"]);
    expect([...content.slots.ids]).toEqual([1, 2]);
  });

  it.each([
    ["cut short", (path: string) => truncateSync(path, readFileSync(path).length - 3), /is unreadable \(the file has \d+ bytes where its header announces \d+\): rebuilding/],
    ["altered", (path: string) => {
      const bytes = readFileSync(path);
      bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff;
      writeFileSync(path, bytes);
    }, /is unreadable \(its content does not match its checksum\): rebuilding/],
    ["not a snapshot", (path: string) => writeFileSync(path, '{"format":1}'), /is unreadable \(not a Lineage search snapshot\): rebuilding/],
    ["of another format", (path: string) => {
      const bytes = readFileSync(path);
      writeFileSync(path, Buffer.from(bytes.toString("latin1").replace('"format":1', '"format":9'), "latin1"));
    }, /has format 9, not 1: rebuilding/],
  ])("refuses a snapshot %s, telling why", async (_, spoil, why) => {
    spoil(await persisted());
    const { opened, lines } = await reopen();
    expect(opened).toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(why)]);
  });

  it("tells why an outdated or foreign snapshot is not used", async () => {
    await persisted();
    const lines: string[] = [];
    const index = createCompactSearchIndex({ dir, log: (line) => lines.push(line) });
    expect(await index.open("d", { fingerprint: "g", generation: 3 })).toBeUndefined();
    expect(await index.open("d", { fingerprint: "f", generation: 4 })).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/another definition of the domain: rebuilding/),
      expect.stringMatching(/of another generation than 4: rebuilding/),
    ]);
  });
});

describe("ranged scoring (block-max)", () => {
  const WORDS = "amber basalt cobalt delta ember fjord granite harbor iris jade kelp lumen moss nectar onyx pearl quartz reef slate topaz".split(" ");
  /** A seeded random generator (mulberry32): the same corpus every run. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const text = (next: () => number, length: number) => Array.from({ length }, () => WORDS[Math.floor(next() ** 1.5 * WORDS.length)]).join(" ");
  const QUERIES = ["amber", "basalt", "amber basalt", "amber -basalt", '"amber basalt"', "amb*", "cobalt delta ember", "iris", "jade amber"];

  /** The same changes on two indexes: one scores every query range by range, the other every match. */
  function twins(mergeAt: number) {
    const ranged = createCompactSearchIndex({ dir, log: () => {}, mergeAt, rangedAt: 0 });
    const full = createCompactSearchIndex({ dir, log: () => {}, mergeAt, rangedAt: Number.POSITIVE_INFINITY });
    for (const index of [ranged, full]) index.reset("d", { fingerprint: "f", generation: 0, seq: 0 });
    const next = random(42);
    const apply = (change: (index: typeof ranged) => void) => [ranged, full].forEach(change);
    for (let round = 0; round < 6; round++) {
      const documents = Array.from({ length: 1500 }, (): IndexedDocument => {
        const id = 1 + Math.floor(next() * 3000);
        return { id, structure: next() < 0.3 ? "NOTE" : "ARTICLE", terms: { A: en.terms(text(next, 1 + Math.floor(next() * 4))), C: en.terms(text(next, Math.floor(next() * 12))) } };
      });
      apply((index) => index.upsert("d", documents));
      const removed = Array.from({ length: 200 }, () => 1 + Math.floor(next() * 3000));
      apply((index) => index.remove("d", removed));
    }
    return { ranged, full };
  }

  for (const mergeAt of [100_000, 5_000]) {
    it(`orders every hit as scoring every match does (merging past ${mergeAt} postings)`, () => {
      const { ranged, full } = twins(mergeAt);
      for (const q of QUERIES) {
        for (const structures of [undefined, ["NOTE"]]) {
          const all = [...full.search("d", parseSearchQuery(q, en), { structures })];
          expect(all.length, q).toBeGreaterThan(0);
          const found = ranged.search("d", parseSearchQuery(q, en), { structures });
          expect("scoredRanges" in found, `${q} is scored range by range`).toBe(true);
          expect([...found], `${q} in ${structures?.join() ?? "every structure"}`).toEqual(all);
        }
      }
    });
  }

  for (const mergeAt of [100_000, 5_000]) {
    it(`orders hits as scoring every match does when searches and changes alternate (merging past ${mergeAt} postings)`, async () => {
      // Scores of frozen postings are kept between searches: a change of rarity or of average lengths must not reuse them.
      const { ranged, full } = twins(mergeAt);
      // Persisting freezes the postings; the documents added after stay pending unless they pass mergeAt.
      // One after the other: both write the same file.
      await ranged.persist("d");
      await full.persist("d");
      const next = random(7);
      for (let round = 0; round < 4; round++) {
        for (const q of QUERIES) {
          for (const structures of [undefined, ["NOTE"]]) {
            expect([...ranged.search("d", parseSearchQuery(q, en), { structures })], `${q}, round ${round}`)
              .toEqual([...full.search("d", parseSearchQuery(q, en), { structures })]);
          }
        }
        // Longer documents, holding amber and basalt more often than the others: both averages and rarities move.
        const documents = Array.from({ length: 400 }, (_, i): IndexedDocument => ({
          id: 1 + Math.floor(next() * 3000), structure: i % 2 === 0 ? "NOTE" : "ARTICLE",
          terms: { A: en.terms(`amber ${text(next, 2)}`), C: en.terms(`basalt ${text(next, 10 + round * 10)}`) },
        }));
        for (const index of [ranged, full]) index.upsert("d", documents);
      }
    });
  }

  it("scores a phrase whose words most documents hold but seldom side by side as scoring every match does", () => {
    const ranged = compactDomain(undefined, 1_000_000, 0);
    const full = compactDomain(undefined, 1_000_000, Number.POSITIVE_INFINITY);
    const next = random(3);
    // Every document holds both words, one in ten of them side by side; a document in three is of the other structure.
    const documents = Array.from({ length: 6000 }, (_, i) => {
      const words = text(next, 4 + (i % 9));
      return { ...doc(i + 1, words, i % 10 === 0 ? `river stone ${words}` : `stone ${words} river`), structure: i % 3 === 0 ? "ARTICLE" : "NOTE" };
    });
    for (const domain of [ranged, full]) {
      domain.add(documents);
      domain.settle();
    }
    for (const structures of [undefined, ["NOTE"]]) {
      const query = parseSearchQuery('"river stone"', en);
      const expected = [...full.search(query, structures)];
      expect(expected).toHaveLength(structures ? 4000 : 6000);
      // Twice: the second search adds up the scores the first one kept.
      for (let run = 0; run < 2; run++) expect([...ranged.search(query, structures)]).toEqual(expected);
    }
  });

  it("gives the first hits of a term most documents hold after scoring one range of forty", () => {
    const domain = compactDomain(undefined, 1_000_000, 0);
    // 40 000 documents hold the term; the shortest ones (the best) are in every range.
    domain.add(Array.from({ length: 40_000 }, (_, i) => doc(i + 1, "title", `common ${"filler ".repeat(i % 50)}`)));
    domain.settle();
    const found = domain.search(parseSearchQuery("common", en)) as RangedHits;
    const hits = found[Symbol.iterator]();
    expect(Array.from({ length: 10 }, () => hits.next().value!.id)).toEqual([1, 51, 101, 151, 201, 251, 301, 351, 401, 451]);
    expect(found.scoredRanges()).toBe(1);
    for (let next = hits.next(); !next.done; next = hits.next());
    expect(found.scoredRanges()).toBe(40);
});
});
