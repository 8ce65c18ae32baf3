import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

/*
 * The built `lineage` command as a child process of a benchmark, as users run it (its JavaScript,
 * without the workspace's source condition), watched through /proc: peak resident memory (VmHWM)
 * CPU seconds and bytes written, read every 100 ms while it runs.
 */

export const ROOT = resolve(import.meta.dirname, "..");
const LINEAGE = join(ROOT, "packages/cli/bin/lineage.mjs");
// `pnpm bench:*` sets the source condition for the script itself; the command runs dist/.
export const CHILD_ENV = { ...process.env, NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--conditions=@lineage\/source/g, "").trim() };
const TICKS = 100;

export interface Usage {
  peakKb: number;
  rssKb: number;
  cpuSeconds: number;
  /** Bytes the process has caused to be written to storage (write_bytes of /proc/PID/io): unlike time, the same under any load. */
  writtenBytes: number;
}

export interface WatchedLineage {
  readonly child: ChildProcess;
  /** The peak resident memory (VmHWM), the last VmRSS and the CPU seconds seen so far. */
  readonly usage: Usage;
  readonly exited: Promise<number | null>;
  readonly stdout: string[];
  readonly stderr: string[];
  /** performance.now() when it was spawned. */
  readonly started: number;
}

/** Reads the process's memory and CPU time into `usage`; nothing once it has exited. */
export function readUsage(pid: number, usage: Usage): void {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    usage.peakKb = Math.max(usage.peakKb, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
    usage.rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    // Fields 14 and 15 of /proc/PID/stat (after the command in parentheses): user and system time, in ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    usage.cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS;
    usage.writtenBytes = Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? usage.writtenBytes);
  } catch {
    // The process has exited between two reads.
  }
}

/** Runs `lineage ARGS` watched; calls onLine for each line of stdout, onError for each of stderr. */
export function runLineage(cliArgs: readonly string[], onLine?: (line: string) => void, onError?: (line: string) => void): WatchedLineage {
  const started = performance.now();
  const child = spawn(process.execPath, [LINEAGE, ...cliArgs], { cwd: ROOT, env: CHILD_ENV, stdio: ["ignore", "pipe", "pipe"] });
  const usage: Usage = { peakKb: 0, rssKb: 0, cpuSeconds: 0, writtenBytes: 0 };
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (stdout.length < 10_000) stdout.push(line);
    onLine?.(line);
  });
  createInterface({ input: child.stderr! }).on("line", (line) => {
    if (stderr.length < 10_000) stderr.push(line);
    onError?.(line);
  });
  const timer = setInterval(() => readUsage(child.pid!, usage), 100);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => {
    clearInterval(timer);
    done(code);
  }));
  return { child, usage, exited, stdout, stderr, started };
}
