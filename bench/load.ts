import autocannon, { type Result } from "autocannon";

/*
 * Loading one URL with autocannon on 127.0.0.1, and the exact latency percentiles of every answer
 * (autocannon's own histogram rounds to whole ms).
 */

export interface LoadSettings {
  readonly connections: number;
  /** Seconds measured. */
  readonly duration: number;
  /** Seconds of warm-up first, not measured. */
  readonly warmup: number;
}

export interface LoadResult {
  /** autocannon's per-second average. */
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly p50: number;
  readonly p97_5: number;
  readonly p99: number;
  readonly max: number;
  readonly bytesPerResponse: number;
  readonly non2xx: number;
  /** Errors and timeouts. */
  readonly errors: number;
}

/** Exact percentile of sorted samples (nearest rank). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** The value of an `authorization` header for HTTP Basic auth. */
export const basicAuth = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

/** One GET that must answer 200 with JSON; returns the parsed body and how long it took. */
export async function probe(url: string, headers: Record<string, string>): Promise<{ body: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), ms };
}

/** autocannon's per-request hook: the request to send (its context is reset after every request). */
export type RequestSetup = (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;

/**
 * autocannon on one URL: a warm-up, then the measured run; latencies from every answer. Logs the figures.
 * With `nextPath`, each request asks for the path it gives instead (e.g. a different element each time);
 * a RequestSetup may also change the method and body, per connection.
 */
export async function runLoad(
  url: string, headers: Record<string, string>, settings: LoadSettings,
  next?: (() => string) | { readonly setup: RequestSetup },
): Promise<LoadResult> {
  const setupRequest: RequestSetup | undefined = typeof next === "function" ? (request) => ({ ...request, path: next() }) : next?.setup;
  let samples = new Float64Array(1 << 16);
  let count = 0;
  const run = autocannon({
    url,
    connections: settings.connections,
    duration: settings.duration,
    ...(settings.warmup > 0 ? { warmup: { connections: settings.connections, duration: settings.warmup } } : {}),
    headers,
    timeout: 10,
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  });
  run.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (count === samples.length) {
      const grown = new Float64Array(samples.length * 2);
      grown.set(samples);
      samples = grown;
    }
    samples[count++] = responseTime;
  });
  const result: Result = await run;
  const sorted = samples.slice(0, count).sort();
  const figures: LoadResult = {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: percentile(sorted, 50),
    p97_5: percentile(sorted, 97.5),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(`bench:   ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ` +
    `${figures.non2xx} non-2xx, ${figures.errors} errors`);
  return figures;
}

/** Flags a run in which some answer was not 2xx or failed: says so, and sets exit code 1. */
export function checkLoads(loads: readonly LoadResult[]): void {
  if (loads.some((figures) => figures.non2xx > 0 || figures.errors > 0)) {
    console.error("bench: some responses were not 2xx or failed: the figures are not valid");
    process.exitCode = 1;
  }
}
