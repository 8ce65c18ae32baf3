/**
 * The median time of `times` runs of `run`, in ms, after one warm-up; after a warm-up of over a
 * second (a scan of a large table, or a first read from a cold cache: 1.7 s for a PostgreSQL page
 * that then took 22 ms), one more run is the figure alone, so that a documented limit costs two runs.
 */
export async function medianTime(run: () => Promise<unknown> | unknown, times: number): Promise<number> {
  const warmUp = await timeOnce(run);
  if (warmUp > 1000) return timeOnce(run);
  const measured: number[] = [];
  for (let i = 0; i < times; i++) measured.push(await timeOnce(run));
  measured.sort((a, b) => a - b);
  return measured[Math.floor(measured.length / 2)]!;
}

/** The time of one run of `run`, in ms. */
async function timeOnce(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
