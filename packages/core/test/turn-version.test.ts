import { describe, expect, it } from "vitest";
import { turnVersion, type AfterIo } from "../src/elements/turn-version.ts";

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

describe("the store's version read once per turn of the event loop", () => {
  it("is one read for every request asking in the same turn", async () => {
    const turns = manualTurns();
    let reads = 0;
    const next = turnVersion({ version: () => String(++reads) }, turns.afterIo);
    const asked = [next(), next(), next()];
    expect(reads).toBe(0);
    turns.flush();
    const versions = await Promise.all(asked);
    expect(reads).toBe(1);
    expect(versions.map((version) => version())).toEqual(["1", "1", "1"]);
  });

  it("is read after the requests asked, so it sees what was committed before they were received", async () => {
    const turns = manualTurns();
    let committed = 0;
    const next = turnVersion({ version: () => String(committed) }, turns.afterIo);
    const asked = next();
    committed = 1;
    turns.flush();
    expect((await asked)()).toBe("1");
  });

  it("is read again for a request asking after the read", async () => {
    const turns = manualTurns();
    let committed = 0;
    const next = turnVersion({ version: () => String(committed) }, turns.afterIo);
    const first = next();
    turns.flush();
    committed = 1;
    const second = next();
    expect(second).not.toBe(first);
    turns.flush();
    expect((await first)()).toBe("0");
    expect((await second)()).toBe("1");
  });

  it("fails every request waiting on a read that failed, and reads again for the next", async () => {
    const turns = manualTurns();
    let closed = true;
    const next = turnVersion({ version: () => { if (closed) throw new Error("database closed"); return "7"; } }, turns.afterIo);
    const asked = [next(), next()];
    turns.flush();
    for (const waiting of asked) await expect(waiting).rejects.toThrow("database closed");
    closed = false;
    const again = next();
    turns.flush();
    expect((await again)()).toBe("7");
  });

  it("waits for the turn's I/O by default (setImmediate)", async () => {
    let reads = 0;
    const next = turnVersion({ version: () => String(++reads) });
    const [a, b] = await Promise.all([next(), next()]);
    expect(a()).toBe("1");
    expect(b()).toBe("1");
    expect(reads).toBe(1);
  });
});
