import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmEnv, outcome, packWorkspace, prebuiltSqlite, ROOT } from "./packing.ts";
import { startWorkspaceRegistry, type WorkspaceRegistry } from "./workspace-registry.ts";

/*
 * docs/embedding.md as a reader follows it: in a folder outside the workspace, with the
 * tarballs `pnpm pack` made and the install line the page gives, every code block in its
 * order. A `sh` block runs in bash (in the folder the previous one left); a `ts FILE` block
 * is written to FILE; a block without a language is what the `sh` block before it prints
 * first, and that one is a server, left running. The `# ` lines after a command are what it
 * prints, compared (as JSON when they are). What differs from the reader's: the port, a free
 * one in place of the page's 8090, given as PORT; LINEAGE_TARBALLS; and npm's registry, the
 * workspace's own (workspace-registry.ts), so that nothing is fetched from the network.
 */

const PAGE = join(ROOT, "docs/embedding.md");
const DOC_PORT = "8090";

interface Block {
  readonly line: number;
  readonly lang: string;
  readonly file: string | undefined;
  readonly text: string;
}

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]!);
    blocks.push({ line: start + 1, lang: open[1]!, file: open[2] || undefined, text: `${body.join("\n")}\n` });
  }
  return blocks;
}

interface Step {
  readonly script: string;
  /** What the page says it prints, if it says. */
  readonly expected: string | undefined;
}

/** A `sh` block's steps: commands up to the `# ` lines that show what they print. */
function stepsOf(block: Block): Step[] {
  const steps: Step[] = [];
  let script: string[] = [];
  let expected: string[] = [];
  const close = () => {
    if (script.length > 0) steps.push({ script: `${script.join("\n")}\n`, expected: expected.length > 0 ? expected.join("\n") : undefined });
    script = [];
    expected = [];
  };
  for (const line of block.text.trimEnd().split("\n")) {
    if (line.startsWith("#")) expected.push(line.slice(1));
    else {
      if (expected.length > 0) close();
      script.push(line);
    }
  }
  close();
  return steps;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function sameOutput(actual: string, expected: string): void {
  try {
    expect(JSON.parse(actual)).toEqual(JSON.parse(expected));
  } catch (error) {
    if (error instanceof SyntaxError) expect(actual.trim()).toBe(expected.trim());
    else throw error;
  }
}

let home: string;
let registry: WorkspaceRegistry | undefined;
let env: NodeJS.ProcessEnv;
let port: number;
const servers: ChildProcess[] = [];
const timings: string[] = [];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "lineage-embedding-docs-"));
  const tarballs = join(home, "tarballs");
  const { build, pack } = await packWorkspace(tarballs);
  const prebuilds = join(home, "prebuilds");
  await prebuiltSqlite(prebuilds);
  registry = await startWorkspaceRegistry(ROOT);
  port = await freePort();
  env = { ...npmEnv(home, registry, prebuilds), LINEAGE_TARBALLS: tarballs, PORT: String(port) };
  mkdirSync(join(home, "work"));
  timings.push(`build ${build.seconds.toFixed(1)} s`, `pack ${pack.seconds.toFixed(1)} s`);
}, 300_000);

afterAll(async () => {
  console.log(`embedding docs: ${timings.join(", ")}`);
  for (const server of servers) if (server.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  await registry?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe("docs/embedding.md, followed as written in a folder outside the workspace", () => {
  it("runs every code block, from the install line to the server's answers", { timeout: 900_000 }, async () => {
    const blocks = blocksOf(readFileSync(PAGE, "utf8"));
    const onPort = (text: string) => text.replaceAll(DOC_PORT, String(port));
    let cwd = join(home, "work");
    const where = join(home, "cwd");
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!;
      const at = `docs/embedding.md:${block.line}`;
      if (block.lang === "ts" && block.file) {
        mkdirSync(dirname(join(cwd, block.file)), { recursive: true });
        writeFileSync(join(cwd, block.file), block.text);
        continue;
      }
      expect(block.lang, `${at}: a block this test does not know how to run`).toBe("sh");
      const next = blocks[i + 1];
      if (next && next.lang === "") {
        // A server: started, and left running once it has printed what the page shows.
        const server = spawn("bash", ["-c", onPort(block.text)], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
        servers.push(server);
        let printed = "";
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${at}: not printed within 120 s:\n${printed}`)), 120_000);
          const hear = (chunk: Buffer) => {
            printed += chunk.toString();
            if (printed.includes(onPort(next.text).trim())) {
              clearTimeout(timer);
              resolve();
            }
          };
          server.stdout.on("data", hear);
          server.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
          server.once("exit", (code) => reject(new Error(`${at}: exited (${code}):\n${printed}`)));
        });
        i++;
        continue;
      }
      for (const step of stepsOf(block)) {
        const script = `set -euo pipefail\n${onPort(step.script)}pwd > '${where}'\n`;
        const result = await outcome("bash", ["-c", script], { cwd, env });
        timings.push(`${at} ${result.seconds.toFixed(1)} s`);
        expect(result.code, `${at}: ${step.script}\n${result.stdout}\n${result.stderr}`).toBe(0);
        if (step.expected !== undefined) sameOutput(result.stdout, onPort(step.expected));
        cwd = readFileSync(where, "utf8").trim();
      }
    }
    // Every block was run, and the page's app is whole: its server answered.
    expect(servers).toHaveLength(1);
  });
});
