import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { probe } from "./load.ts";

/*
 * A `lineage serve` the benchmarks start as a child process: a free port for it, the wait until it
 * answers, and its stop.
 */

/** A port free on loopback now (the child binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Resolves once GET `url` answers 2xx; fails when the child exits first or `timeoutMs` passes. */
export async function untilAnswering(child: ChildProcess, url: string, headers: Record<string, string>, timeoutMs: number, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`lineage serve exited with ${child.exitCode}`);
    try {
      await probe(url, headers);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((done) => setTimeout(done, everyMs));
    }
  }
}

/** Stops the child (SIGTERM, as an operator would) and resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  await exited;
}
