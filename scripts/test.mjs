#!/usr/bin/env node
// Runs every test with vitest and closes with the plain `N passed, N failed`
// line CI reads (it does not read vitest's own summary).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";

if (!ensureChromium()) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const results = ".vitest-results.json";
rmSync(results, { force: true });
const run = spawnSync(
  "vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...process.argv.slice(2)],
  { stdio: "inherit", shell: false },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(results)) {
  const report = JSON.parse(readFileSync(results, "utf8"));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} else {
  failed = 1;
}
const status = run.status ?? 1;
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(status !== 0 || failed > 0 || passed === 0 ? 1 : 0);
