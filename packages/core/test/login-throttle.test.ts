import { describe, expect, it } from "vitest";
import { createLoginThrottle, throttleKeys } from "../src/index.ts";

describe("login throttle", () => {
  const keys = throttleKeys("Alice", "10.0.0.1");

  it("keys attempts by account (case-insensitive) and by client address", () => {
    expect(keys).toEqual(["account:alice", "address:10.0.0.1"]);
    expect(throttleKeys(undefined, "::1")).toEqual(["address:::1"]);
  });

  it("lets the free failures pass, then doubles the delay up to the cap", () => {
    const throttle = createLoginThrottle({ freeFailures: 2, baseDelayMs: 100, maxDelayMs: 1000 });
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      delays.push(throttle.delayMs(keys, 0));
      throttle.failed(keys, 0);
    }
    expect(delays).toEqual([0, 0, 100, 200, 400, 800, 1000]);
  });

  it("slows an address trying many accounts, and an account tried from many addresses", () => {
    const throttle = createLoginThrottle({ freeFailures: 1, baseDelayMs: 100 });
    for (const login of ["a", "b", "c"]) throttle.failed(throttleKeys(login, "10.0.0.9"), 0);
    expect(throttle.delayMs(throttleKeys("fresh", "10.0.0.9"), 0)).toBe(400);
    for (const address of ["1.1.1.1", "2.2.2.2"]) throttle.failed(throttleKeys("bob", address), 0);
    expect(throttle.delayMs(throttleKeys("bob", "3.3.3.3"), 0)).toBe(200);
  });

  it("forgets failures after the window, and on reset", () => {
    const throttle = createLoginThrottle({ freeFailures: 0, baseDelayMs: 100, windowMs: 1000 });
    throttle.failed(keys, 0);
    expect(throttle.delayMs(keys, 500)).toBe(100);
    expect(throttle.delayMs(keys, 1501)).toBe(0);
    throttle.failed(keys, 2000);
    throttle.reset(keys);
    expect(throttle.delayMs(keys, 2000)).toBe(0);
  });

  it("keeps memory bounded, dropping the least recently failed keys", () => {
    const throttle = createLoginThrottle({ maxEntries: 100, freeFailures: 0 });
    for (let i = 0; i < 1000; i++) throttle.failed([`address:${i}`], i);
    expect(throttle.size).toBe(100);
    expect(throttle.delayMs(["address:999"], 1000)).toBeGreaterThan(0);
    expect(throttle.delayMs(["address:0"], 1000)).toBe(0);
  });
});
