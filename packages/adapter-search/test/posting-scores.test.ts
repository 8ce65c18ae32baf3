import { describe, expect, it } from "vitest";
import { postingScoresCache } from "../src/compact/posting-scores.ts";
import { frozenPostings } from "../src/compact/postings.ts";

// Three terms holding 2, 3 and 5 postings.
const postings = frozenPostings(["a", "b", "c"], Uint32Array.from([0, 2, 5, 10]), new Uint32Array(10), new Uint32Array(10));

describe("posting scores kept between searches", () => {
  it("keeps a term's scores while its scoring is the same, and starts afresh when it changes", () => {
    const cache = postingScoresCache(postings);
    const first = cache.of(1, "x", 2)!;
    expect(first.first).toBe(2);
    expect(first.scores).toHaveLength(3);
    first.scores[0] = 1.5;
    first.filled[0] = 1;
    expect(cache.of(1, "x", 2)).toBe(first);
    const other = cache.of(1, "y", 2)!;
    expect(other).not.toBe(first);
    expect([...other.filled]).toEqual([0, 0]);
  });

  it("drops the terms used longest ago past the postings it holds, and keeps no term larger than that", () => {
    const cache = postingScoresCache(postings, 5);
    const a = cache.of(0, "x", 1);
    const b = cache.of(1, "x", 1);
    expect(cache.of(0, "x", 1)).toBe(a);
    // c (5 postings) makes room by dropping b, then a, the terms used longest ago.
    const c = cache.of(2, "x", 1);
    expect(c).toBeDefined();
    expect(cache.of(1, "x", 1)).not.toBe(b);
    expect(cache.of(2, "x", 1)).not.toBe(c);
    expect(postingScoresCache(postings, 4).of(2, "x", 1)).toBeUndefined();
  });
});
