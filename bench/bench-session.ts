import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/*
 * What a benchmark run holds and must give back: a temp dir and its child processes (bench/*-process.ts,
 * bench/bare-server.ts, run under tsx's loader with an IPC channel). Both are removed whatever happens:
 * at the end of the run, on SIGINT/SIGTERM/SIGHUP, on exit, and when the run goes over its budget.
 */

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface BenchSession {
  readonly tempDir: string;
  /** Starts `bench/<script>` under tsx's loader, with an IPC channel; `profile` adds --cpu-prof when a profile dir is set. */
  startChild(script: string, childArgs: string[], profile: boolean): ChildProcess;
  /** Takes a child started otherwise into the session: cleanup() stops it with the others. */
  adopt(child: ChildProcess): ChildProcess;
  /** Starts `bench/<script>` (it sends { url } over IPC once it listens); resolves to that URL within 60 s. */
  startServer(script: string, childArgs: string[], profile: boolean): Promise<{ child: ChildProcess; url: string }>;
  /** Stops the children (SIGTERM, then SIGKILL after 5 s) and removes the temp dir; once. */
  cleanup(): Promise<void>;
  /** Runs the benchmark: logs its failure (exit code 1), then stops the watchdog and cleans up. */
  run(main: () => Promise<void>): Promise<void>;
}

/**
 * Makes the temp dir (`<tmpdir>/<tempPrefix>XXXXXX`), installs the exit and signal handlers, and arms the
 * watchdog: over `budget` seconds, the run is stopped (exit code 1).
 */
export function openBenchSession(settings: { tempPrefix: string; budget: number; profileDir: string | undefined }): BenchSession {
  const children = new Set<ChildProcess>();
  const tempDir = mkdtempSync(join(tmpdir(), settings.tempPrefix));
  let cleaned = false;

  function killChildren(signal: NodeJS.Signals): void {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }

  async function cleanup(): Promise<void> {
    if (cleaned) return;
    killChildren("SIGTERM");
    const deadline = Date.now() + 5_000;
    while ([...children].some((child) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
    }
    killChildren("SIGKILL");
    rmSync(tempDir, { recursive: true, force: true });
    cleaned = true;
  }

  process.on("exit", () => {
    if (cleaned) return;
    killChildren("SIGKILL");
    rmSync(tempDir, { recursive: true, force: true });
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    console.error(`bench: over the ${settings.budget} s budget, stopping`);
    void cleanup().finally(() => process.exit(1));
  }, settings.budget * 1000);

  function startChild(script: string, childArgs: string[], profile: boolean): ChildProcess {
    const flags = profile && settings.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${settings.profileDir}`] : [];
    const child = spawn(process.execPath, [...flags, "--import", TSX_LOADER, join(ROOT, "bench", script), ...childArgs], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return adopt(child);
  }

  function adopt(child: ChildProcess): ChildProcess {
    children.add(child);
    child.once("exit", () => children.delete(child));
    return child;
  }

  async function startServer(script: string, childArgs: string[], profile: boolean): Promise<{ child: ChildProcess; url: string }> {
    const child = startChild(script, childArgs, profile);
    const { url } = await firstMessage<{ url: string }>(child, script, 60, { killOnTimeout: false });
    return { child, url };
  }

  async function run(main: () => Promise<void>): Promise<void> {
    try {
      await main();
    } catch (error) {
      console.error(`bench: ${(error as Error).stack ?? String(error)}`);
      process.exitCode = 1;
    } finally {
      clearTimeout(watchdog);
      await cleanup();
    }
  }

  return { tempDir, startChild, adopt, startServer, cleanup, run };
}

/**
 * The first IPC message of a child; fails if it exits first or takes longer than `seconds`. On that
 * timeout the child is SIGKILLed at once, unless `killOnTimeout` is false (it is then left to cleanup).
 */
export function firstMessage<T>(child: ChildProcess, what: string, seconds: number, { killOnTimeout = true } = {}): Promise<T> {
  return new Promise((resolveMessage, reject) => {
    const timer = setTimeout(() => {
      if (killOnTimeout) child.kill("SIGKILL");
      reject(new Error(`${what}: no answer after ${seconds} s`));
    }, seconds * 1000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolveMessage(message as T);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what}: exited (${signal ?? code}) before answering`));
    });
  });
}

/** CPU time a process has used so far, user and system, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A line of /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: peak). */
export function statusMb(pid: number, key: "VmRSS" | "VmHWM"): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN) / 1024;
}
