/**
 * The median time of `times` runs of `run`, in ms, after one warm-up; a warm-up of over a second (a
 * scan of a large table) is the figure alone, timed once, so that a documented limit costs one run.
 */
export async function medianTime(run: () => Promise<unknown> | unknown, times: number): Promise<number> {
  const first = performance.now();
  await run();
  const warmUp = performance.now() - first;
  if (warmUp > 1000) return warmUp;
  const measured: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    measured.push(performance.now() - started);
  }
  measured.sort((a, b) => a - b);
  return measured[Math.floor(measured.length / 2)]!;
}
