import { spawn } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const BIN = join(ROOT, "packages/cli/bin/lineage.mjs");

/*
 * `node` arguments that run the `lineage` command as an installed package runs it: the built
 * JavaScript of dist/, which the command line project's global set-up (build-setup.ts) brings up
 * to date with the sources before any test. Starting from the sources instead costs tsx's
 * compilation at every start, about 0.7 s of CPU per command, which these suites pay a hundred times.
 */
// LINEAGE_TEST_CLI=sources runs them from the sources, as the suites did before (bench/test-suite.ts measures both).
export const LINEAGE = process.env.LINEAGE_TEST_CLI === "sources" ? ["--conditions=@lineage/source", BIN] : [BIN];

/** The command from the TypeScript sources (through tsx): for a configuration that names a `.ts` module of its own. */
export const LINEAGE_FROM_SOURCES = ["--conditions=@lineage/source", BIN];

/** What a finished `lineage` process left. */
export interface LineageRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `lineage ARGS` (built, as above) to its end without blocking the test's event loop: a
 * blocking run (spawnSync) that outlasts a server's keep-alive leaves fetch a pooled socket the
 * server has closed meanwhile ("other side closed" on the next request).
 */
export function runLineage(args: readonly string[], options: { readonly stdin?: string; readonly cwd?: string } = {}): Promise<LineageRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [...LINEAGE, ...args], { cwd: options.cwd ?? ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolveRun({ status, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
