import { performance } from "node:perf_hooks";
import type { IndexPacing } from "@lineage/core";

export interface LoopPacingOptions {
  /** How long one step of a build may take, in ms: the most a request waits for it. */
  readonly sliceMs?: number;
  /** The share of the event loop a build takes while requests keep it busy. */
  readonly share?: number;
}

/**
 * The loop's active time during a pause past which requests kept it busy, in ms. A 1 ms pause on an
 * idle loop is itself 0.1 to 1.5 ms active (timers, the promise's resolution), 15 % to all of it:
 * judged by its share, as it was, every such pause looked busy, and a quiet server built a million
 * elements' index at a fifth of its speed (303 s against 62). The requests queued during a step
 * take more than this in the pause that follows it.
 */
const BUSY_ACTIVE_MS = 2;

/**
 * The pacing of `lineage serve`'s index builds: steps of a few ms, and after each a pause long
 * enough that the build takes at most `share` of the event loop, as long as the loop was busy
 * during the last pause (requests came). On a loop left idle the pause shrinks to 1 ms, so a
 * build on a quiet server goes about at full speed.
 */
export function createLoopPacing(options: LoopPacingOptions = {}): IndexPacing {
  const sliceMs = options.sliceMs ?? 8;
  const share = options.share ?? 0.12;
  let busy = true;
  return {
    sliceMs,
    async rest(workedMs) {
      const pause = busy ? Math.max(1, (workedMs * (1 - share)) / share) : 1;
      const before = performance.eventLoopUtilization();
      await new Promise<void>((resolve) => setTimeout(resolve, pause));
      busy = performance.eventLoopUtilization(before).active > BUSY_ACTIVE_MS;
    },
  };
}
