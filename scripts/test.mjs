#!/usr/bin/env node
// The test command: the static checks (type checks and lint), then every test
// with vitest, closing with the plain `N passed, N failed` line CI reads (it
// does not read vitest's own summary). Each static check counts as one test,
// so a lint error fails the run and shows in that line. Given arguments (a
// vitest filter), only those tests run: `pnpm typecheck` and `pnpm lint` are
// there for the rest.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";

const STATIC_CHECKS = [
  { name: "type check", command: "tsc", args: ["-p", "tsconfig.json", "--noEmit"] },
  { name: "type check of the core without Node", command: "tsc", args: ["-p", "packages/core/tsconfig.json", "--noEmit"] },
  { name: "lint", command: "eslint", args: [".", "--max-warnings=0"] },
];

/** Runs a check with its output held back, so that checks run side by side print whole. */
function runCheck({ name, command, args }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const done = (ok, more = "") => resolve({ name, ok, output: output + more, seconds: (performance.now() - started) / 1000 });
    child.on("error", (error) => done(false, `${command}: ${error.message}\n`));
    child.on("close", (code) => done(code === 0));
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;

const filter = process.argv.slice(2);
if (filter.length === 0) {
  // Side by side: each is mostly one thread, and vitest wants both cores after them.
  for (const check of await Promise.all(STATIC_CHECKS.map(runCheck))) {
    console.log(`${check.ok ? "✓" : "✗"} ${check.name} (${check.seconds.toFixed(1)} s)`);
    if (!check.ok) console.log(check.output.trimEnd());
    if (check.ok) passed++;
    else failed++;
  }
} else {
  console.log("Static checks skipped (a test filter was given): pnpm typecheck, pnpm lint");
}

if (!ensureChromium()) {
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

const results = ".vitest-results.json";
rmSync(results, { force: true });
const run = spawnSync(
  "vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...filter],
  { stdio: "inherit", shell: false },
);

let testsPassed = 0;
let testsFailed = 0;
if (existsSync(results)) {
  const report = JSON.parse(readFileSync(results, "utf8"));
  testsPassed = report.numPassedTests ?? 0;
  testsFailed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} else {
  testsFailed = 1;
}
const status = run.status ?? 1;
if (status !== 0 && testsFailed === 0) testsFailed = 1;
passed += testsPassed;
failed += testsFailed;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(status !== 0 || failed > 0 || testsPassed === 0 ? 1 : 0);
