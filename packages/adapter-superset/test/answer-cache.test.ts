import { describe, expect, it } from "vitest";
import { createAnswerCache } from "../src/answer-cache.ts";

// The cache of Superset's answers, on a hand-moved clock (no I/O).

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, ko) => { resolve = ok; reject = ko; });
  return { promise, resolve, reject };
}

describe("createAnswerCache", () => {
  it("keeps an answer ttl ms from its arrival, then asks again", async () => {
    let now = 0;
    let loads = 0;
    const cache = createAnswerCache(1000, () => now);
    const load = async () => ++loads;
    expect(await cache.get("list", load)).toBe(1);
    now = 999;
    expect(await cache.get("list", load)).toBe(1);
    expect(await cache.get("other", load)).toBe(2);
    now = 1000;
    expect(await cache.get("list", load)).toBe(3);
  });

  it("shares an answer on its way, even with a ttl of 0", async () => {
    const cache = createAnswerCache(0, () => 0);
    const pending = deferred<string>();
    let loads = 0;
    const load = () => { loads++; return pending.promise; };
    const both = Promise.all([cache.get("list", load), cache.get("list", load)]);
    pending.resolve("answer");
    expect(await both).toEqual(["answer", "answer"]);
    expect(loads).toBe(1);
    await cache.get("list", async () => { loads++; return "again"; });
    expect(loads).toBe(2);
  });

  it("does not keep a failure", async () => {
    const cache = createAnswerCache(60_000, () => 0);
    await expect(cache.get("list", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("list", async () => "up")).toBe("up");
  });
});
