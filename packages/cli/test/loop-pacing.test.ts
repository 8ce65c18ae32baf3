import { describe, expect, it, vi } from "vitest";
import { createLoopPacing } from "../src/loop-pacing.ts";

/*
 * The pauses `lineage serve`'s index builds take between two steps (loop-pacing.ts), read from the
 * timers they set: short on a loop nothing else keeps busy, long while other work (requests) does.
 */

/** Keeps the thread busy for `ms`, as a build's step or a request does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** The pause of each of `steps` rests, each after a step of 8 ms. */
async function pauses(steps: number): Promise<number[]> {
  const pacing = createLoopPacing();
  const delays: number[] = [];
  const setTimer = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, delay?: number) => {
    delays.push(delay ?? 0);
    return setTimer(callback, delay);
  }) as typeof setTimeout);
  try {
    for (let i = 0; i < steps; i++) {
      work(8);
      await pacing.rest(8);
    }
  } finally {
    vi.restoreAllMocks();
  }
  return delays;
}

describe("the pacing of index builds", () => {
  it("pauses 1 ms between steps on a loop nothing else keeps busy: a quiet server builds about at full speed", async () => {
    const delays = await pauses(40);
    // Every other pause was long when the loop's own timer counted as busy (a fifth of full speed).
    expect(delays.filter((delay) => delay === 1).length).toBeGreaterThanOrEqual(30);
  });

  it("pauses long enough to leave the loop to other work while it keeps coming", async () => {
    // Requests of 3 ms each, one per millisecond at most.
    const requests = setInterval(() => work(3), 1);
    try {
      const delays = await pauses(20);
      expect(delays.filter((delay) => delay > 1).length).toBeGreaterThanOrEqual(15);
    } finally {
      clearInterval(requests);
    }
  });
});
