/**
 * How index builds share the event loop with the requests a server answers: a build works in
 * steps of about `sliceMs` (its batches shrink or grow to fit), and awaits `rest` between two,
 * told how long the last step took, so that a request waits at most one step.
 */
export interface IndexPacing {
  /** How long one step of a build may take, in ms (Infinity: a full batch each step). */
  readonly sliceMs: number;
  /** Runs between two steps of a build. */
  rest(workedMs: number): Promise<void>;
}

/** No pacing: full batches, a macrotask between two (timers and I/O run, however fast the store answers). */
export const UNPACED: IndexPacing = {
  sliceMs: Number.POSITIVE_INFINITY,
  rest: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
};

/** The batch size of a build's next step: halved when a step took longer than the slice, doubled when it took less than half of it. */
export function nextBatchSize(size: number, workedMs: number, pacing: IndexPacing, largest: number): number {
  if (!Number.isFinite(pacing.sliceMs)) return largest;
  if (workedMs > pacing.sliceMs) return Math.max(10, Math.floor(size / 2));
  if (workedMs < pacing.sliceMs / 2) return Math.min(largest, size * 2);
  return size;
}
