import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { ROOT } from "./serve-process.ts";
import { LINEAGE } from "./lineage-command.ts";

/** `lineage postgres` as a real child process. */
export interface PostgresProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** SIGTERM, then waits for the exit (the server stopped). */
  stop(): Promise<number | null>;
}

/** Spawns `lineage postgres --dir DIR --port PORT` and resolves with the URL it prints. */
export function spawnPostgres(dir: string, port: number): Promise<PostgresProcess> {
  const child = spawn(process.execPath, [...LINEAGE, "postgres", "--dir", dir, "--port", String(port)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => log.push(line));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("postgres://")) return;
      resolve({
        child, url: line,
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`lineage postgres exited (${code}) before printing its URL:\n${log.join("\n")}`)));
  });
}
