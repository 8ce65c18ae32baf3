import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { LINEAGE, LINEAGE_FROM_SOURCES } from "./lineage-command.ts";

/* `lineage serve` as a real child process (packages/cli/bin/lineage.mjs), its output kept line by line. */

export const ROOT = resolve(import.meta.dirname, "..", "..", "..");
export const DEMO = join(ROOT, "examples/demo/bundle.json");

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `lineage serve --port 0 ARGS` and resolves once it listens (60 s at most). */
export function spawnServe(args: readonly string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...LINEAGE, "serve", "--port", "0", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once("exit", (code, signal) => done({ code, signal })));
  createInterface({ input: child.stderr! }).on("line", (line) => stderr.push(line));
  return new Promise((resolveServe, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not listen within 60 s: ${stderr.join("\n")}`));
    }, 60_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      stdout.push(line);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveServe({ child, url: match[1], stdout, stderr, exited });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${signal ?? code}) before listening: ${stderr.join("\n")}`));
    });
  });
}

/** The value of an `authorization` header for HTTP Basic. */
export const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

/**
 * Runs `lineage serve --port 0 ARGS` from the sources (a configuration may name `.ts` modules);
 * resolves with its URL, or with its exit code and error output when it stops first (a refused start).
 */
export function serveOrExit(args: string[]): Promise<{ url?: string; code?: number | null; stderr: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [...LINEAGE_FROM_SOURCES, "serve", "--port", "0", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise((done) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) done({ url, stderr, process: child });
    });
    child.once("exit", (code) => done({ code, stderr, process: child }));
  });
}
