// UNFINISHED (not yet run by vitest: rename to readme.test.ts once green): the second server check of the command-line block never succeeds; see the branch report.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, basic } from "./serve-process.ts";

/*
 * Every fenced code block of the README, run as written, as a person following it from a clone
 * would: the server of its first command, its curl block against that server, then its alias and
 * its command-line block in one shell on a pseudo-terminal (`script`), answering the prompts as
 * they appear. It runs in a checkout of its own (symbolic links to this one's files), so `./data`,
 * `./data2` and `lineage-types.ts` are written there, never in the repository. The only changes
 * made to a block are the ports (free ones instead of 8080, 8081 and 5433, which other runs may hold).
 */

/** A README block the test must not run: preceded by `<!-- readme-test: skip REASON -->`. None today. */
const SKIP_MARKER = /<!--\s*readme-test:\s*skip\s+(.+?)\s*-->\s*$/;

interface Block {
  readonly text: string;
  readonly skip?: string;
}

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const fence = /^```[^\n]*\n([\s\S]*?)^```\s*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const before = markdown.slice(0, match.index).trimEnd();
    const skip = SKIP_MARKER.exec(before)?.[1];
    blocks.push({ text: match[1]!.trimEnd(), ...(skip ? { skip } : {}) });
  }
  return blocks;
}

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const BLOCKS = blocksOf(README);
const PNPM = "npx --yes pnpm@10.34.9";
/** How long one step may take on a loaded machine before the test gives up (each `pnpm` is an npx start). */
const PATIENCE_MS = 240_000;

const checkout = mkdtempSync(join(tmpdir(), "lineage-readme-"));
// What following the README writes in the checkout is never linked: it must land in this copy.
for (const name of readdirSync(ROOT)) {
  if ([".git", "data", "data2", "lineage-types.ts"].includes(name)) continue;
  symlinkSync(join(ROOT, name), join(checkout, name));
}

/** Connects to the URL a `lineage postgres` log printed and runs a query: its exit status says whether the server answers. */
const PG_CHECK = join(checkout, ".readme-postgres-answers.cjs");
writeFileSync(
  PG_CHECK,
  `const url = require("fs").readFileSync(process.argv[2], "utf8").match(/postgres(ql)?:\\/\\/\\S+/)[0];
const client = new (require("pg").Client)(url);
client.connect().then(() => client.query("select 1")).then(() => client.end()).catch(() => process.exit(1));
`,
);

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) stopGroup(child, "SIGKILL");
  rmSync(checkout, { recursive: true, force: true });
});

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `url` until it answers 200, `PATIENCE_MS` at most. */
async function answers(url: string, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    try {
      const response = await fetch(url, { headers });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${PATIENCE_MS / 1000} s`);
    await wait(500);
  }
}

/** Runs a shell script in the checkout to its end; with `prompts`, on a pseudo-terminal, answering each prompt as it appears. */
function runShell(script: string, env: Record<string, string>, prompts: ReadonlyArray<readonly [RegExp, string]> = []) {
  const file = join(checkout, `.readme-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  const child = spawn("script", ["-qefc", `bash ${file}`, "/dev/null"], { cwd: checkout, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  started.push(child);
  let output = "";
  let answered = 0;
  const answers: string[] = [];
  const onData = (chunk: string) => {
    output += chunk;
    // Prompts answered so far are behind `answered`: only a new one gets an answer.
    for (;;) {
      const rest = output.slice(answered);
      let first: { index: number; end: number; answer: string } | undefined;
      for (const [pattern, answer] of prompts) {
        const match = pattern.exec(rest);
        if (match && (!first || match.index < first.index)) first = { index: match.index, end: match.index + match[0].length, answer };
      }
      if (!first) break;
      answered += first.end;
      answers.push(first.answer);
      child.stdin.write(`${first.answer}\n`);
    }
  };
  child.stdout.setEncoding("utf8").on("data", onData);
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  return new Promise<{ status: number | null; output: string; answers: string[] }>((done) => {
    const timer = setTimeout(() => stopGroup(child, "SIGKILL"), PATIENCE_MS * 3);
    child.on("close", (status) => {
      clearTimeout(timer);
      child.stdin.end();
      done({ status, output, answers });
    });
  });
}

/** The failure message of a block: its text and what it printed. */
const report = (block: string, output: string) => `README block failed:\n${block}\n--- its output ---\n${output}`;

describe("the README's code blocks run as written", () => {
  it("lists the blocks it must not run (none)", () => {
    expect(BLOCKS.filter((block) => block.skip).map((block) => `${block.skip}: ${block.text}`)).toEqual([]);
  });

  it("runs the install, the server, the curl block and the command line", { timeout: PATIENCE_MS * 6 }, async () => {
    const runnable = BLOCKS.filter((block) => !block.skip).map((block) => block.text);
    const [startBlock, testBlock, aliasBlock, curlBlock, commandBlock, ...others] = runnable;
    expect(others, "a README block this test does not run yet").toEqual([]);

    // The install and test command is what CI runs, to the letter: .ci/run runs it (CI has installed
    // and built this checkout before the tests run, with that very install).
    expect(testBlock).toBe(`${PNPM} install --frozen-lockfile && ${PNPM} test`);
    const ciRun = readFileSync(join(ROOT, ".ci/run"), "utf8").trimEnd().split("\n");
    expect(ciRun.at(-1)).toBe(testBlock);
    // The first command installs as the second does (the lockfile, unchanged, is what --frozen-lockfile checks), then starts.
    expect(startBlock).toBe(`${PNPM} install && ${PNPM} start`);

    const port = await freePort();
    const serverOutput: string[] = [];
    const server = spawn("bash", ["-c", startBlock!.split(" && ").slice(1).join(" && ")], { cwd: checkout, env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    started.push(server);
    server.stdout.setEncoding("utf8").on("data", (chunk: string) => serverOutput.push(chunk));
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => serverOutput.push(chunk));
    const base = `http://localhost:${port}`;
    try {
      await answers(`${base}/api/v2/smart-elements/ART_HELLO.json`, { authorization: basic("admin", "admin") });
      await answers(`${base}/console/`);
    } catch (error) {
      throw new Error(report(startBlock!, `${String(error)}\n${serverOutput.join("")}`));
    }
    // It wrote the demo into the checkout's own ./data.
    expect(existsSync(join(checkout, "data"))).toBe(true);

    const curl = await runShell(`set -e\n${curlBlock!.replaceAll("localhost:8080", `localhost:${port}`)}\n`, {});
    expect(curl.status, report(curlBlock!, curl.output)).toBe(0);
    expect(curl.output, report(curlBlock!, curl.output)).not.toMatch(/"success":\s*false/);
    expect(curl.output.match(/"success":\s*true/g), report(curlBlock!, curl.output)).toHaveLength(3);

    const [second, postgres] = [await freePort(), await freePort()];
    const lines = commandBlock!.replaceAll("localhost:8080", `localhost:${port}`).replaceAll("--port 8081", `--port ${second}`).replaceAll("--port 5433", `--port ${postgres}`).split("\n");
    const script = [
      "shopt -s expand_aliases",
      "set -e",
      `trap 'echo "[readme] failed: $BASH_COMMAND"' ERR`,
      // A long-running command runs in a process group of its own until it answers, then stops.
      `untilAnswers() { local log=$1 check=$2; for i in $(seq 1 ${PATIENCE_MS / 1000}); do if eval "$check" >/dev/null 2>&1; then return 0; fi; sleep 1; done; cat "$log"; return 1; }`,
      `stopGroup() { kill -TERM -- -$1; for i in $(seq 1 60); do kill -0 -- -$1 2>/dev/null || return 0; sleep 1; done; kill -KILL -- -$1; }`,
      aliasBlock!,
      ...lines.map((line) => {
        if (/ lineage serve /.test(line))
          return `set -m; ${line} </dev/null >serve2.log 2>&1 & pid=$!; set +m; untilAnswers serve2.log "curl -sf -u admin:admin http://127.0.0.1:${second}/api/v2/smart-elements/ART_HELLO.json" || { stopGroup $pid; false; }; cat serve2.log; stopGroup $pid`;
        if (/ lineage postgres /.test(line))
          return `set -m; ${line} </dev/null >postgres.log 2>&1 & pid=$!; set +m; untilAnswers postgres.log "node ${PG_CHECK} postgres.log" || { stopGroup $pid; false; }; cat postgres.log; stopGroup $pid`;
        return line;
      }),
      `echo "[readme] done"`,
    ].join("\n");
    const password = "dora-has-a-long-password";
    const command = await runShell(`${script}\n`, { PORT: String(port) }, [
      [/Overwrite them with the bundle's values\? \[y\/N\] /, "y"],
      [/Password for "dora": /, password],
      [/The same password again: /, password],
    ]);
    const both = `${aliasBlock}\n${commandBlock}`;
    expect(command.status, report(both, command.output)).toBe(0);
    expect(command.output, report(both, command.output)).toContain("[readme] done");
    // The import asked (ART_HELLO was edited by the curl block), user add and passwd asked twice each.
    expect(command.answers, report(both, command.output)).toEqual(["y", password, password, password, password]);
    expect(existsSync(join(checkout, "lineage-types.ts"))).toBe(true);

    stopGroup(server, "SIGTERM");
    const exit = await Promise.race([new Promise((done) => server.once("exit", done)), wait(60_000).then(() => "still running")]);
    expect(exit, report(startBlock!, serverOutput.join(""))).not.toBe("still running");
  });
});
