#!/usr/bin/env node
// `pnpm build`: every package to its dist/. `tsc -b` compiles the TypeScript (JavaScript and
// declarations, in dependency order, only what changed); the plain JavaScript modules of src/
// (the scripts of worker threads) are then copied beside the code that starts them. The exit
// status is tsc's: a type error fails the build, though dist/ is written anyway.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const compiled = spawnSync(process.execPath, [tsc, "-b", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });

/** Files of `dir` and its folders, recursively. */
function* filesOf(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesOf(path);
    else yield path;
  }
}

for (const name of readdirSync(join(ROOT, "packages"))) {
  const src = join(ROOT, "packages", name, "src");
  if (!existsSync(src)) continue;
  for (const file of filesOf(src)) {
    if (!/\.(mjs|cjs|js)$/.test(file)) continue;
    const target = join(ROOT, "packages", name, "dist", relative(src, file));
    if (existsSync(target) && statSync(target).mtimeMs >= statSync(file).mtimeMs) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
}
process.exit(compiled.status ?? 1);
