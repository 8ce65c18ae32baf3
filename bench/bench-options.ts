import { resolve } from "node:path";

/*
 * The command-line options every benchmark takes (--duration S, --warmup S, --connections N,
 * --budget S, --profile DIR, --no-docs), for node:util's parseArgs; a script adds its own.
 */

/** The load's defaults: a run with these writes no flag for them in its "Run on" line. */
const LOAD_DEFAULTS = { duration: 10, warmup: 2, connections: 10 } as const;

/** The shared options as parseArgs reads them; `budget` (seconds for the whole run) is the script's own default. */
export function benchArgOptions(budget: number) {
  return {
    duration: { type: "string", default: String(LOAD_DEFAULTS.duration) },
    warmup: { type: "string", default: String(LOAD_DEFAULTS.warmup) },
    connections: { type: "string", default: String(LOAD_DEFAULTS.connections) },
    budget: { type: "string", default: String(budget) },
    profile: { type: "string" },
    "no-docs": { type: "boolean", default: false },
  } as const;
}

export interface BenchOptions {
  /** Seconds of measured load per route. */
  readonly duration: number;
  /** Seconds of warm-up before each route's load. */
  readonly warmup: number;
  readonly connections: number;
  /** Seconds the whole run may take. */
  readonly budget: number;
  /** Where the children started with profiling write their --cpu-prof files, if asked. */
  readonly profileDir: string | undefined;
  readonly writeDocs: boolean;
}

/** A whole number from 1 to `max`, or an error naming the option. */
export function positive(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new Error(`--${name} takes an integer from 1 to ${max}, not "${raw}"`);
  return value;
}

/** The trees a comparison runs, from `--trees LABEL=DIR,LABEL=DIR`: each a checkout with its own build. */
export function benchTrees(raw: string): { label: string; dir: string }[] {
  return raw.split(",").map((entry) => {
    const [label, dir] = entry.split("=");
    if (!label || !dir) throw new Error(`--trees: "${entry}" is not LABEL=DIR`);
    return { label, dir: resolve(dir) };
  });
}

/** The shared options, checked, from parseArgs' values. */
export function benchOptions(args: {
  duration: string; warmup: string; connections: string; budget: string; profile?: string | undefined; "no-docs": boolean;
}): BenchOptions {
  return {
    duration: positive("duration", args.duration, 60),
    warmup: positive("warmup", args.warmup, 30),
    connections: positive("connections", args.connections, 100),
    budget: positive("budget", args.budget, 1800),
    profileDir: args.profile ? resolve(args.profile) : undefined,
    writeDocs: !args["no-docs"],
  };
}

/** The load flags of this run that differ from their defaults, as typed (`--duration 2`), for the docs. */
export function changedLoadArgs(options: Pick<BenchOptions, "duration" | "warmup" | "connections">): string[] {
  return [
    options.duration !== LOAD_DEFAULTS.duration ? `--duration ${options.duration}` : "",
    options.warmup !== LOAD_DEFAULTS.warmup ? `--warmup ${options.warmup}` : "",
    options.connections !== LOAD_DEFAULTS.connections ? `--connections ${options.connections}` : "",
  ].filter(Boolean);
}
