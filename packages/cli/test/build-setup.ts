import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

/**
 * Brings every package's dist/ up to date with its sources (`pnpm build`, incremental: a third of a
 * second when nothing changed), so that the `lineage` commands of these suites run what the sources say.
 * A type error does not stop the tests (the build still writes dist/, and the type check reports it).
 */
export default function setup(): void {
  const build = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, encoding: "utf8" });
  if (build.error) throw build.error;
  if (build.status !== 0) console.warn(`pnpm build reported errors; the command line suites run what it wrote:\n${build.stdout}${build.stderr}`);
}
