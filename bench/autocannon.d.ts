/** The part of autocannon 8's programmatic API the benchmarks use (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    warmup?: { connections?: number; duration?: number };
  }

  /** Percentiles of a histogram (latency in ms, requests per second, bytes per second). */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface Result {
    url: string;
    connections: number;
    duration: number;
    requests: Histogram & { sent: number };
    latency: Histogram & { totalCount: number };
    throughput: Histogram;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** A run: emits `response` (client, statusCode, bytes, responseTimeMs) and resolves to the result. */
  export interface Instance extends EventEmitter, PromiseLike<Result> {}

  export default function autocannon(options: Options): Instance;
}
