import { describe, expect, it } from "vitest";
import { turnVersion, type AfterIo } from "../src/scope/turn-version.ts";
import type { ChangeClock, ChangeStamp } from "../src/ports/change-clock.port.ts";

/** An AfterIo run by hand: `flush()` is the check phase of the turn. */
function manualTurns(): { afterIo: AfterIo; flush(): void } {
  let queued: Array<() => void> = [];
  return {
    afterIo: (run) => queued.push(run),
    flush() {
      const running = queued;
      queued = [];
      for (const run of running) run();
    },
  };
}

const stamp = (data: string): ChangeStamp => ({ data, definitions: "d" });

/** A change clock answering what `value()` says when read, counting its reads. */
function countedClock(value: () => ChangeStamp | Promise<ChangeStamp>): ChangeClock & { reads: number } {
  const clock = {
    reads: 0,
    async read() {
      clock.reads++;
      return value();
    },
  };
  return clock;
}

describe("the change clock read once per turn of the event loop", () => {
  it("is one read for every request asking in the same turn", async () => {
    const turns = manualTurns();
    let committed = 0;
    const clock = countedClock(() => stamp(String(++committed)));
    const next = turnVersion(clock, turns.afterIo);
    const asked = [next(), next(), next()];
    expect(clock.reads).toBe(0);
    turns.flush();
    const stamps = await Promise.all(asked);
    expect(clock.reads).toBe(1);
    expect(stamps).toEqual([stamp("1"), stamp("1"), stamp("1")]);
  });

  it("is read after the requests asked, so it sees what was committed before they were received", async () => {
    const turns = manualTurns();
    let committed = 0;
    const next = turnVersion(countedClock(() => stamp(String(committed))), turns.afterIo);
    const asked = next();
    committed = 1;
    turns.flush();
    expect(await asked).toEqual(stamp("1"));
  });

  it("is read again for a request asking once the read has started", async () => {
    const turns = manualTurns();
    let committed = 0;
    const clock = countedClock(() => stamp(String(committed)));
    const next = turnVersion(clock, turns.afterIo);
    const first = next();
    turns.flush();
    await Promise.resolve();
    expect(clock.reads).toBe(1);
    // This request may have come after what the first read saw.
    committed = 1;
    const second = next();
    expect(second).not.toBe(first);
    turns.flush();
    expect(await first).toEqual(stamp("0"));
    expect(await second).toEqual(stamp("1"));
    expect(clock.reads).toBe(2);
  });

  it("is read again for a request asking while a slow read is under way", async () => {
    const turns = manualTurns();
    const answers: Array<(value: ChangeStamp) => void> = [];
    const clock = countedClock(() => new Promise<ChangeStamp>((resolve) => answers.push(resolve)));
    const next = turnVersion(clock, turns.afterIo);
    const first = next();
    turns.flush();
    await Promise.resolve();
    const second = next();
    expect(second).not.toBe(first);
    turns.flush();
    await Promise.resolve();
    expect(clock.reads).toBe(2);
    answers[1]?.(stamp("2"));
    answers[0]?.(stamp("1"));
    expect(await first).toEqual(stamp("1"));
    expect(await second).toEqual(stamp("2"));
  });

  it("fails every request waiting on a read that failed, and reads again for the next", async () => {
    const turns = manualTurns();
    let closed = true;
    const clock = countedClock(() => {
      if (closed) throw new Error("database closed");
      return stamp("7");
    });
    const next = turnVersion(clock, turns.afterIo);
    const asked = [next(), next()];
    turns.flush();
    for (const waiting of asked) await expect(waiting).rejects.toThrow("database closed");
    expect(clock.reads).toBe(1);
    closed = false;
    const again = next();
    turns.flush();
    expect(await again).toEqual(stamp("7"));
    expect(clock.reads).toBe(2);
  });

  it("waits for the turn's I/O with setImmediate, as Node's adapters give it", async () => {
    let committed = 0;
    const clock = countedClock(() => stamp(String(++committed)));
    const next = turnVersion(clock, setImmediate);
    const [a, b] = await Promise.all([next(), next()]);
    expect([a, b]).toEqual([stamp("1"), stamp("1")]);
    expect(clock.reads).toBe(1);
    expect(await next()).toEqual(stamp("2"));
  });
});
