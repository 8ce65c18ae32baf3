import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { machineLine, publishSection } from "./benchmarks-doc.ts";

/*
 * The test suite's time (issue 20, item 6), by `pnpm bench:test-suite`: the whole vitest run with
 * today's vitest.config.ts, then with the configuration of before that issue (one project, every
 * file isolated in its own process, vitest's default of a worker less than the cores, and the
 * command line suites starting `lineage` from the TypeScript sources: LINEAGE_TEST_CLI=sources),
 * back to back on the same tests. The before configuration is read from git (the commit before the projects were
 * split), written beside vitest.config.ts for the run and removed after.
 * Options: --order after-first|before-first (after-first), --no-docs.
 */

const SECTION = "## Test suite: before and after the vitest projects";
const ROOT = resolve(import.meta.dirname, "..");
/** The commit that split the vitest projects (issue 20, item 6): its parent holds the configuration of before. */
const SPLIT = "7e1659f";
const BEFORE_CONFIG = join(ROOT, ".vitest.before.config.ts");

const { values: options } = parseArgs({
  options: { order: { type: "string", default: "after-first" }, "no-docs": { type: "boolean", default: false } },
});
if (options.order !== "after-first" && options.order !== "before-first") throw new Error("--order: after-first or before-first");

interface Run {
  readonly name: "after" | "before";
  readonly wallSeconds: number;
  /** vitest's own "Duration". */
  readonly durationSeconds: number;
  readonly passed: number;
  readonly failed: number;
  readonly loads: readonly [number, number];
}

/** One whole vitest run; its wall time, vitest's duration and counts. */
function run(name: Run["name"], args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const startLoad = loadavg()[0]!;
  const started = performance.now();
  const vitest = spawnSync("pnpm", ["exec", "vitest", "run", ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, ...env } });
  const wallSeconds = (performance.now() - started) / 1000;
  const output = stripVTControlCharacters(`${vitest.stdout}${vitest.stderr}`);
  const duration = /Duration\s+([\d.]+)s/.exec(output);
  const tests = /Tests\s+(?:(\d+) failed \| )?(\d+) passed/.exec(output);
  if (!duration || !tests) throw new Error(`vitest (${name}) printed no summary:\n${output.slice(-2000)}`);
  return {
    name, wallSeconds, durationSeconds: Number(duration[1]), passed: Number(tests[2]), failed: Number(tests[1] ?? 0),
    loads: [startLoad, loadavg()[0]!],
  };
}

const before = spawnSync("git", ["show", `${SPLIT}^:vitest.config.ts`], { cwd: ROOT, encoding: "utf8" });
if (before.status !== 0) throw new Error(`git show ${SPLIT}^:vitest.config.ts: ${before.stderr}`);
writeFileSync(BEFORE_CONFIG, before.stdout);
const runs: Run[] = [];
try {
  const built = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) console.warn("bench: pnpm build reported errors; the runs go on with what it wrote");
  const afterRun = () => runs.push(run("after", []));
  const beforeRun = () => runs.push(run("before", ["--config", BEFORE_CONFIG], { LINEAGE_TEST_CLI: "sources" }));
  if (options.order === "after-first") {
    afterRun();
    beforeRun();
  } else {
    beforeRun();
    afterRun();
  }
} finally {
  rmSync(BEFORE_CONFIG, { force: true });
}

const of = (name: Run["name"]) => runs.find((r) => r.name === name)!;
const gain = 1 - of("after").durationSeconds / of("before").durationSeconds;
const row = (r: Run) =>
  `| ${r.name === "after" ? "today's vitest.config.ts" : `before the projects (${SPLIT}^)`} | ${r.durationSeconds.toFixed(1)} s | ` +
  `${r.wallSeconds.toFixed(1)} s | ${r.passed} passed, ${r.failed} failed | ${r.loads[0].toFixed(1)} → ${r.loads[1].toFixed(1)} |`;
publishSection([
  SECTION,
  "",
  `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:test-suite --order ${options.order}\` (the whole vitest run twice, back to back, ` +
    "on the same tests; before, the command line suites start `lineage` from its sources, as they did).",
  "",
  `${machineLine()} Other processes may share the cores: the load average (1 min) is given at the start and the end of each run.`,
  "",
  "| configuration | vitest duration | wall | tests | load average |",
  "|---|---|---|---|---|",
  ...runs.map(row),
  "",
  `Target: at least 40 % less time. Measured: ${(gain * 100).toFixed(0)} % less, ${gain >= 0.4 ? "met" : "**NOT met**"}. ` +
    "The packed install (test/) is not in the configuration of before, which did not have it: the after run carries its time.",
  "",
].join("\n"), { heading: SECTION, write: !options["no-docs"] });
