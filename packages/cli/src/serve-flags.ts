import * as v from "valibot";
import { Option, type Command } from "commander";
import { DEFAULT_HTTP_LIMITS } from "@lineage/adapter-http";
import { MAX_SLICE } from "@lineage/core";
import type { LineageLimits } from "./start-lineage.ts";
import { UsageError } from "./usage-error.ts";

/** Default time requests in flight get to finish after SIGTERM. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

const MIB = 1024 * 1024;
/** A size as the flags take it, for the help: `20MiB`, `16KiB`. */
const sizeText = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB}MiB` : bytes % 1024 === 0 ? `${bytes / 1024}KiB` : String(bytes));

/**
 * The `lineage serve` flags for limits, logging and durability (docs/limits.md): the value each
 * takes, what it does and its default, as `lineage serve --help` prints them. The configuration
 * file's `limits` key takes the same names.
 */
export const SERVE_LIMIT_OPTIONS = {
  "max-body": { value: "size", description: "the largest request body, e.g. 1048576, 512k or 50MiB (413 API0010 beyond)", default: sizeText(DEFAULT_HTTP_LIMITS.maxBodyBytes) },
  "max-upload": { value: "size", description: "the largest file of a multipart upload (413 API0102 beyond)", default: sizeText(DEFAULT_HTTP_LIMITS.maxUploadBytes) },
  "max-json-depth": { value: "n", description: "the deepest nesting of a JSON body (400 API0009 beyond)", default: String(DEFAULT_HTTP_LIMITS.maxJsonDepth) },
  "max-slice": { value: "n", description: "the most elements one list answer holds, slice=all included", default: String(MAX_SLICE) },
  "max-header": { value: "size", description: "the largest request line plus headers (431 API0105 beyond)", default: sizeText(DEFAULT_HTTP_LIMITS.maxHeaderBytes) },
  "request-timeout": { value: "seconds", description: "how long a request may run, upload included (503 API0101 beyond)", default: String(DEFAULT_HTTP_LIMITS.requestTimeoutMs / 1000) },
  "shutdown-delay": { value: "seconds", description: "after SIGTERM, how long /health says 503 while requests are still taken", default: "0" },
  "shutdown-grace": { value: "seconds", description: "then, how long the requests in flight get to finish", default: String(DEFAULT_SHUTDOWN_GRACE_MS / 1000) },
  "log-level": { value: "level", description: "request log level: fatal, error, warn, info, debug, trace or silent", default: "info" },
  synchronous: { value: "mode", description: "SQLite's sync at commit: full (survives a power cut) or normal (faster)", default: "full" },
} as const;

/** Adds the limit flags to `lineage serve`; their defaults apply later, so that the configuration file's `limits` may set them. */
export function withServeLimitOptions(command: Command): Command {
  for (const [name, { value, description, default: shown }] of Object.entries(SERVE_LIMIT_OPTIONS)) {
    const option = new Option(`--${name} <${value}>`, description);
    option.defaultValueDescription = shown;
    command.addOption(option);
  }
  return command;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];


const UNITS: Record<string, number> = { "": 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** A size in bytes: `1048576`, `512k`, `20MiB` (binary multiples). */
export function parseSize(flag: string, raw: string): number {
  const match = /^(\d{1,12})\s*([a-z]*)$/i.exec(raw.trim());
  const unit = UNITS[match?.[2]?.toLowerCase() ?? "x"];
  const bytes = match && unit !== undefined ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`--${flag} takes a size such as 1048576, 512k or 20MiB, not "${raw}"`);
  return bytes;
}

/** A whole number from 1 up. */
export function parseCount(flag: string, raw: string): number {
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < 1) throw new UsageError(`--${flag} takes a whole number from 1, not "${raw}"`);
  return Number(raw);
}

/** Seconds (decimals allowed) as milliseconds. */
export function parseSeconds(flag: string, raw: string, { allowZero = false } = {}): number {
  const ms = /^\d{1,7}(\.\d{1,3})?$/.test(raw.trim()) ? Math.round(Number(raw) * 1000) : NaN;
  if (!Number.isSafeInteger(ms) || ms < (allowZero ? 0 : 1)) throw new UsageError(`--${flag} takes a number of seconds, not "${raw}"`);
  return ms;
}

export interface ServeSettings {
  readonly limits: LineageLimits;
  readonly shutdownGraceMs: number;
  /** How long /health says 503 while requests are still taken, before the listener closes. */
  readonly shutdownDelayMs: number;
  readonly logLevel: LogLevel;
  readonly synchronous: "full" | "normal";
}


type Flags = { [K in keyof typeof SERVE_LIMIT_OPTIONS]?: string | undefined };

/**
 * The `limits` key of the configuration file: the same names and values as the flags
 * (`{"max-body": "50MiB", "request-timeout": 60}`); a flag given on the command line wins.
 */
export const LimitsConfigSchema = v.strictObject(
  Object.fromEntries(Object.keys(SERVE_LIMIT_OPTIONS).map((name) => [name, v.optional(v.union([v.string(), v.number()]))])) as
    { [K in keyof typeof SERVE_LIMIT_OPTIONS]: v.OptionalSchema<v.UnionSchema<[v.StringSchema<undefined>, v.NumberSchema<undefined>], undefined>, undefined> },
);

/** The limit flags given on the command line, by flag name, out of commander's camel-cased values. */
export function limitFlagsOf(values: Readonly<Record<string, unknown>>): Flags {
  const given = Object.keys(SERVE_LIMIT_OPTIONS).map((name) => [name, values[name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())]] as const);
  return Object.fromEntries(given.filter(([, value]) => typeof value === "string"));
}

/** The flags of a configuration file's `limits`, as strings, for serveSettings. */
export function flagsOfConfig(limits: v.InferOutput<typeof LimitsConfigSchema> | undefined): Flags {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined).map(([name, value]) => [name, String(value)]));
}

/** The settings of `lineage serve` from its flags; absent flags keep the defaults. */
export function serveSettings(flags: Flags): ServeSettings {
  const optional = <T>(raw: string | undefined, parse: (raw: string) => T) => (raw === undefined ? undefined : parse(raw));
  const level = flags["log-level"] ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level takes one of ${LOG_LEVELS.join(", ")}, not "${level}"`);
  const synchronous = flags.synchronous ?? "full";
  if (synchronous !== "full" && synchronous !== "normal") throw new UsageError(`--synchronous takes full or normal, not "${synchronous}"`);
  const limits: LineageLimits = {
    maxBodyBytes: optional(flags["max-body"], (raw) => parseSize("max-body", raw)),
    maxUploadBytes: optional(flags["max-upload"], (raw) => parseSize("max-upload", raw)),
    maxJsonDepth: optional(flags["max-json-depth"], (raw) => parseCount("max-json-depth", raw)),
    maxSlice: optional(flags["max-slice"], (raw) => parseCount("max-slice", raw)),
    maxHeaderBytes: optional(flags["max-header"], (raw) => parseSize("max-header", raw)),
    requestTimeoutMs: optional(flags["request-timeout"], (raw) => parseSeconds("request-timeout", raw)),
  };
  return {
    limits: Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
    shutdownDelayMs: optional(flags["shutdown-delay"], (raw) => parseSeconds("shutdown-delay", raw, { allowZero: true })) ?? 0,
    shutdownGraceMs: optional(flags["shutdown-grace"], (raw) => parseSeconds("shutdown-grace", raw, { allowZero: true })) ?? DEFAULT_SHUTDOWN_GRACE_MS,
    logLevel: level as LogLevel,
    synchronous,
  };
}
