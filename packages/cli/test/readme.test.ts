import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, basic } from "./serve-process.ts";

/*
 * Every fenced code block of the README, run as a person following it from a clone would: the
 * server of its first block, its curl block against that server, then its alias and its
 * command-line block in one bash on a pseudo-terminal (`script`), answering the prompts as they
 * appear. The two blocks it does not run, and why, are in SKIPPED below; a block it does not
 * know (a new one, or one changed in a way the plan below does not expect) fails the test.
 *
 * It runs in a checkout of its own: symbolic links to this one's files, so that `./data`,
 * `./data2` and `lineage-types.ts` are written there, never in the repository. What differs from
 * the reader's run: free ports instead of 8080, 8081 and 5433 (other runs may hold those), and
 * `pnpm` itself (see the alias block below).
 */

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const PNPM = "npx --yes pnpm@10.34.9";
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
/** How long a server may take to answer, or one command to end, on a loaded machine. */
const PATIENCE_S = 90;

/** The README blocks this test does not run: each is compared to the letter instead, for the reason given. */
const SKIPPED = {
  install: {
    text: `${PNPM} install`,
    why:
      "the install has run before this test: .ci/run runs `pnpm install --frozen-lockfile` (the README's own test block), " +
      "which is this install when the lockfile matches package.json, and fails otherwise; installing again here would " +
      "rewrite node_modules under the running suite",
  },
  test: {
    text: readFileSync(join(ROOT, ".ci/run"), "utf8").trimEnd().split("\n").at(-1)!,
    why: "it is the command .ci/run runs, to the letter: the run this test is part of (running it here would recurse)",
  },
};

interface Block {
  readonly line: number;
  readonly text: string;
}

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ line: start + 1, text: body.join("\n").trimEnd() });
  }
  return blocks;
}

/** A block's commands: its lines, a line ending in `\\` joined with the next. */
function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let pending = "";
  for (const line of text.split("\n")) {
    pending += line;
    if (line.endsWith("\\")) pending += "\n";
    else {
      commands.push(pending);
      pending = "";
    }
  }
  if (pending) commands.push(pending);
  return commands;
}

/** What each block is, by its text: the plan below runs (or skips) each of these once, in this order. */
const ROLES = ["start", "test", "alias", "curl", "commands"] as const;
type Role = (typeof ROLES)[number];

function roleOf(text: string): Role | undefined {
  if (text === `${SKIPPED.install.text} && ${PNPM} start`) return "start";
  if (text === SKIPPED.test.text) return "test";
  if (text === `alias pnpm='${PNPM}'`) return "alias";
  if (commandsOf(text).every((command) => command.startsWith("curl "))) return "curl";
  const lineage = (command: string) => /^(\w+=\$\()?pnpm (-s )?lineage /.test(command);
  if (commandsOf(text).some(lineage) && commandsOf(text).every((command) => lineage(command) || command.startsWith("curl "))) return "commands";
  return undefined;
}

const BLOCKS = blocksOf(README);
const at = (block: Block | undefined) => `README.md:${block?.line ?? "?"}`;
const blockOf = (role: Role): Block => {
  const block = BLOCKS.find((candidate) => roleOf(candidate.text) === role);
  if (!block) throw new Error(`the README has no ${role} block any more: see the first test's failure`);
  return block;
};

const base = mkdtempSync(join(tmpdir(), "lineage-readme-"));
const checkout = join(base, "checkout");
mkdirSync(checkout);
// What following the README writes in the checkout is never linked: it must land in this copy.
for (const name of readdirSync(ROOT)) {
  if ([".git", "data", "data2", "lineage-types.ts"].includes(name)) continue;
  symlinkSync(join(ROOT, name), join(checkout, name));
}
/** Process groups the README's shell started in the background, one a line: the clean-up's list. */
const GROUPS = join(base, "groups");
writeFileSync(GROUPS, "");
/** Exits 0 once the PostgreSQL server whose URL is the first line of FILE answers a query, 1 otherwise, in 5 s at most. */
const PG_CHECK = join(base, "postgres-answers.cjs");
writeFileSync(
  PG_CHECK,
  `const url = require("fs").readFileSync(process.argv[2], "utf8").match(/postgres(?:ql)?:\\/\\/\\S+/)?.[0];
if (!url) process.exit(1);
const pg = require(require.resolve("pg", { paths: [${JSON.stringify(ROOT)}] }));
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 3000 });
client.connect().then(() => client.query("select 1")).then(() => client.end(), () => process.exit(1)).catch(() => process.exit(1));
setTimeout(() => process.exit(1), 5000).unref();
`,
);
/** `pnpm`'s own scripts run with the installed bins first on PATH, as here. */
const ENV = { ...process.env, PATH: `${join(checkout, "node_modules/.bin")}:${process.env.PATH ?? ""}` };

const started: ChildProcess[] = [];

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Every process whose working directory is in the checkout: what following the README left running. */
function processesInTheCheckout(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(checkout)) found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")}`);
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

afterAll(() => {
  // Only after a failure is anything still running here: the test itself stops what it starts.
  for (const child of started) if (child.pid) killGroup(child.pid, "SIGKILL");
  for (const line of readFileSync(GROUPS, "utf8").split("\n").filter(Boolean)) killGroup(Number(line), "SIGKILL");
  rmSync(base, { recursive: true, force: true });
});

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

/** A string as one bash word. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** What a finished shell printed (stdout and stderr together, as on a terminal), with the answers it was given. */
interface ShellRun {
  readonly status: number | null;
  readonly output: string;
  readonly answers: readonly string[];
}

/**
 * Runs a bash script in the checkout to its end on a pseudo-terminal (the commands that ask
 * something ask only a terminal), answering each prompt of `prompts` as it appears.
 */
function runOnTerminal(script: string, prompts: ReadonlyArray<readonly [RegExp, string]> = []): Promise<ShellRun> {
  const file = join(base, `script-${started.length}.sh`);
  writeFileSync(file, script);
  const child = spawn("script", ["-qefc", `bash ${file}`, "/dev/null"], { cwd: checkout, env: ENV, stdio: ["pipe", "pipe", "pipe"], detached: true });
  started.push(child);
  let output = "";
  let answered = 0;
  const answers: string[] = [];
  const hear = (chunk: string) => {
    output += chunk.replaceAll("\r", "");
    // Prompts answered so far are before `answered`: only a new one gets an answer.
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
  child.stdout.setEncoding("utf8").on("data", hear);
  child.stderr.setEncoding("utf8").on("data", hear);
  return new Promise((done) => {
    child.on("close", (status) => {
      child.stdin.end();
      done({ status, output, answers });
    });
  });
}

/** A command on one line, for the markers. */
const oneLine = (command: string) => command.replaceAll("\n", " ");

/** What each line of a script printed, by the `[readme] $ LINE` markers the script prints before each. */
function outputByLine(output: string): Map<string, string> {
  const byLine = new Map<string, string>();
  for (const part of output.split("\n[readme] $ ").slice(1)) {
    const end = part.indexOf("\n");
    byLine.set(part.slice(0, end), part.slice(end + 1));
  }
  return byLine;
}

/** The failure message of a block: where it is, its text and what it printed. */
const report = (block: Block | undefined, output: string) => `${at(block)} failed:\n${block?.text}\n--- what it printed ---\n${output}`;

let port = 0;
let server: ChildProcess | undefined;
const serverOutput: string[] = [];

describe("the README's code blocks, run as written", () => {
  it("are the blocks this test knows, and the skipped ones are, to the letter, what runs elsewhere", () => {
    // A block of none of these (a new one, or one changed beyond what roleOf recognises) is named by its line: teach the test to run it.
    expect(BLOCKS.map((block) => roleOf(block.text) ?? `${at(block)}, a block this test does not know`)).toEqual(ROLES);
    // The first block is the install (not run: SKIPPED.install.why) and `pnpm start` (run below).
    // The second is .ci/run's command, which the README calls the test command.
    expect(SKIPPED.test.text, `.ci/run's last line: ${SKIPPED.test.why}`).toBe(`${PNPM} install --frozen-lockfile && ${PNPM} test`);
  });

  it("first block: `pnpm start` serves the demo on PORT", { timeout: PATIENCE_S * 2_000 }, async () => {
    const startBlock = blockOf("start");
    port = await freePort();
    // `pnpm start` runs package.json's script with the installed bins on PATH, as here (without npx's start).
    server = spawn("bash", ["-c", SCRIPTS.start!], { cwd: checkout, env: { ...ENV, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    started.push(server);
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening within ${PATIENCE_S} s`)), PATIENCE_S * 1000);
      server!.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        serverOutput.push(chunk);
        if (serverOutput.join("").includes(`listening on http://127.0.0.1:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      server!.once("exit", (code) => reject(new Error(`exited (${code}) before listening`)));
    });
    server.stderr!.setEncoding("utf8").on("data", (chunk: string) => serverOutput.push(chunk));
    try {
      await listening;
      const hello = await fetch(`http://127.0.0.1:${port}/api/v2/smart-elements/ART_HELLO.json`, { headers: { authorization: basic("admin", "admin") }, signal: AbortSignal.timeout(10_000) });
      expect(hello.status).toBe(200);
      const consolePage = await fetch(`http://127.0.0.1:${port}/console/`, { signal: AbortSignal.timeout(10_000) });
      expect(consolePage.status).toBe(200);
    } catch (error) {
      throw new Error(report(startBlock, `${String(error)}\n${serverOutput.join("")}`));
    }
    // The logins it printed, and the demo it imported into the checkout's own ./data.
    expect(serverOutput.join(""), report(startBlock, serverOutput.join(""))).toContain("admin");
    expect(existsSync(join(checkout, "data"))).toBe(true);
  });

  it("the curl block answers as the demo logins say", { timeout: PATIENCE_S * 1_000 }, async () => {
    expect(port, "the server of the first block").not.toBe(0);
    const curlBlock = blockOf("curl");
    const run = await runOnTerminal(`set -e\n${curlBlock.text.replaceAll("localhost:8080", `localhost:${port}`)}\n`);
    expect(run.status, report(curlBlock, run.output)).toBe(0);
    expect(run.output, report(curlBlock, run.output)).not.toMatch(/"success":\s*false/);
    // Each curl succeeded (curl's own exit status is 0 whatever the HTTP status).
    expect(run.output.match(/"success":\s*true/g), report(curlBlock, run.output)).toHaveLength(commandsOf(curlBlock.text).length);
  });

  it("the alias and the command-line block run, in one shell, answering the prompts", { timeout: PATIENCE_S * 4_000 }, async () => {
    expect(port, "the server of the first block").not.toBe(0);
    /*
     * The alias block runs as written, and the shell is asked what `pnpm` then is: the very
     * `npx --yes pnpm@10.34.9` the skipped blocks use, which .ci/run runs. Then `pnpm lineage ARGS`
     * runs package.json's `lineage` script the way pnpm does, with its build left out: the command
     * line's global set-up (build-setup.ts) has just run that build, and an npx start per command
     * costs seconds each (half a minute on a loaded machine). Any other `pnpm` use fails.
     */
    expect(SCRIPTS.lineage, "package.json's lineage script").toBe("node scripts/build.mjs && lineage");
    const [second, postgres] = [await freePort(), await freePort()];
    const [aliasBlock, commandBlock] = [blockOf("alias"), blockOf("commands")];
    const lines = commandsOf(commandBlock.text);
    const onFreePorts = (line: string) => line.replaceAll("localhost:8080", `localhost:${port}`).replaceAll("--port 8081", `--port ${second}`).replaceAll("--port 5433", `--port ${postgres}`);
    /** The long-running commands: started, checked until they answer, then stopped. `lineage postgres` prints its URL once it accepts connections. */
    const servers: ReadonlyArray<{ pattern: RegExp; name: string; check: string }> = [
      { pattern: /\blineage serve\b/, name: "serve", check: `curl -sf --max-time 3 -u admin:admin http://127.0.0.1:${second}/api/v2/smart-elements/ART_HELLO.json` },
      { pattern: /\blineage postgres\b/, name: "postgres", check: `grep -q postgres "$LOGS/postgres.out" && node ${PG_CHECK} "$LOGS/postgres.out"` },
    ];
    const script = [
      "shopt -s expand_aliases",
      "set -e",
      `echo $$ >> ${GROUPS}`,
      `LOGS=${quoted(base)}`,
      `trap 'echo "[readme] failed: $BASH_COMMAND"' ERR`,
      // Until CHECK succeeds, while group PID lives, PATIENCE_S at most.
      `untilAnswers() { local name=$1 check=$2 pid=$3; for i in $(seq 1 ${PATIENCE_S * 2}); do if eval "$check" >/dev/null 2>&1; then return 0; fi; if ! kill -0 -- -$pid 2>/dev/null; then break; fi; sleep 0.5; done; echo "[readme] $name did not answer:"; cat "$LOGS/$name.out" "$LOGS/$name.err"; return 1; }`,
      // SIGTERM to the group, then SIGKILL to what still runs after PATIENCE_S.
      `stopGroup() { kill -TERM -- -$1 2>/dev/null || true; wait $1 2>/dev/null || true; for i in $(seq 1 ${PATIENCE_S * 2}); do kill -0 -- -$1 2>/dev/null || return 0; sleep 0.5; done; echo "[readme] group $1 still ran after SIGTERM"; kill -KILL -- -$1; return 1; }`,
      `printf '\\n[readme] $ %s\\n' ${quoted(aliasBlock.text)}`,
      aliasBlock.text,
      `printf '\\n[readme] $ %s\\n' 'type pnpm'`,
      "type pnpm",
      "unalias pnpm",
      `pnpm() { if [ "$1" = -s ]; then shift; fi; if [ "$1" != lineage ]; then echo "[readme] only pnpm lineage runs here, not: pnpm $*"; return 127; fi; shift; lineage "$@"; }`,
      ...lines.flatMap((line) => {
        const marker = `printf '\\n[readme] $ %s\\n' ${quoted(oneLine(line))}`;
        const long = servers.find((candidate) => candidate.pattern.test(line));
        if (!long) return [marker, onFreePorts(line)];
        // In a process group of its own (set -m), on lines of its own: the line's comment ends with it.
        return [
          marker,
          "set -m",
          "{",
          onFreePorts(line),
          `} </dev/null >"$LOGS/${long.name}.out" 2>"$LOGS/${long.name}.err" &`,
          "job=$!",
          "set +m",
          `echo $job >> ${GROUPS}`,
          `untilAnswers ${long.name} ${quoted(long.check)} $job || { stopGroup $job; false; }`,
          `cat "$LOGS/${long.name}.out"`,
          "stopGroup $job",
        ];
      }),
      `printf '\\n[readme] $ %s\\n' done`,
    ].join("\n");
    const password = "dora-has-a-long-password";
    const run = await runOnTerminal(`${script}\n`, [
      [/Overwrite them with the bundle's values\? \[y\/N\] /, "y"],
      [/Password for "dora": /, password],
      [/The same password again: /, password],
    ]);
    const both = { line: aliasBlock.line, text: `${aliasBlock.text}\n${commandBlock.text}` };
    const failed = report(both, run.output);
    expect(run.status, failed).toBe(0);
    const byLine = outputByLine(run.output);
    expect([...byLine.keys()], failed).toEqual([aliasBlock.text, "type pnpm", ...lines.map(oneLine), "done"]);
    expect(byLine.get("type pnpm"), failed).toContain(`aliased to \`${PNPM}'`);
    const printed = (pattern: RegExp) => [...byLine].find(([line]) => pattern.test(line))?.[1] ?? "";
    // The dry run names ART_HELLO, which the curl block edited; the import then asked; user add and passwd asked twice each.
    expect(printed(/lineage import .*--dry-run/), failed).toContain("ART_HELLO");
    expect(run.answers, failed).toEqual(["y", password, password, password, password]);
    expect(printed(/lineage user list/), failed).toContain("dora");
    expect(printed(/^curl .*Token/), failed).toMatch(/"success":\s*true/);
    expect(printed(/lineage serve/), failed).toContain(`listening on http://127.0.0.1:${second}`);
    expect(printed(/lineage postgres/), failed).toMatch(new RegExp(`postgres(ql)?://\\S+:${postgres}/`));
    // The types it wrote are the demo's, which examples/demo holds.
    expect(readFileSync(join(checkout, "lineage-types.ts"), "utf8"), failed).toBe(readFileSync(join(ROOT, "examples/demo/lineage-types.ts"), "utf8"));
    // What the README wrote in the checkout (every entry that is not a link to the repository's) is ignored by git.
    const written = readdirSync(checkout).filter((name) => !lstatSync(join(checkout, name)).isSymbolicLink()).map((name) => (lstatSync(join(checkout, name)).isDirectory() ? `${name}/` : name));
    expect(written).toEqual(expect.arrayContaining(["data/", "data2/", "lineage-types.ts"]));
    const ignored = spawnSync("git", ["check-ignore", "--no-index", ...written], { cwd: ROOT, encoding: "utf8" });
    expect(ignored.stdout.split("\n").filter(Boolean).sort(), ".gitignore: what following the README writes").toEqual([...written].sort());
  });

  it("the first block's server stops on SIGTERM, and nothing the README started still runs", { timeout: PATIENCE_S * 1_000 }, async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((done) => server!.once("exit", done));
      killGroup(server.pid!, "SIGTERM");
      await exited;
    }
    // The group may outlive bash by a moment: the serve process finishes its shutdown.
    for (let i = 0; i < PATIENCE_S * 2 && processesInTheCheckout().length > 0; i++) await new Promise((done) => setTimeout(done, 500));
    expect(processesInTheCheckout()).toEqual([]);
  });
});
