import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { WorkspaceRegistry } from "./workspace-registry.ts";

/*
 * What the tests of the packed packages share: building and packing the workspace's published
 * packages as a user would (`pnpm pack` turns workspace:* into versions), and running npm, node
 * and the app's commands in an app outside the workspace, with nothing of the workspace's
 * environment that would change how they behave.
 */

export const ROOT = resolve(import.meta.dirname, "..");
const run = promisify(execFile);

const manifestOf = (name: string) => JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")) as { name: string; version: string; private?: boolean };
const WORKSPACE_PACKAGES = readdirSync(join(ROOT, "packages")).filter((name) => existsSync(join(ROOT, "packages", name, "package.json")));
/** The published packages (folders of packages/), found in the workspace: packages/integration-tests is private, never packed. */
export const PUBLISHED = WORKSPACE_PACKAGES.filter((name) => manifestOf(name).private !== true);
const PRIVATE = WORKSPACE_PACKAGES.filter((name) => manifestOf(name).private === true);

/**
 * The environment of the workspace's test run, without what would change how npm, node or
 * vitest behave in the app: pnpm's npm_* settings, vitest's own variables, NODE_OPTIONS.
 */
export function outsideEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) =>
    !/^(npm_|pnpm_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$)/i.test(name)));
}

/** pnpm as this run was started (`npx pnpm@…` puts none on the PATH), else the version the workspace pins, through npx. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  const { packageManager } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { packageManager: string };
  return ["npx", ["--yes", packageManager]];
}

export interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string;
}

/** Runs a command to its end; never throws for a non-zero status. */
export async function outcome(command: string, args: readonly string[], options: RunOptions): Promise<Outcome> {
  const started = performance.now();
  try {
    const child = run(command, args, { cwd: options.cwd, env: options.env ?? outsideEnv(), maxBuffer: 64 * 1024 * 1024 });
    if (options.input !== undefined) child.child.stdin?.end(options.input);
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === "number" ? failed.code : 1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? failed.message,
      seconds: (performance.now() - started) / 1000,
    };
  }
}

/** Runs a command that must succeed; its output. */
export async function succeed(command: string, args: readonly string[], options: RunOptions): Promise<Outcome> {
  const result = await outcome(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** Builds every package (incremental) and packs the published ones into `tarballs`; how long each took. */
export async function packWorkspace(tarballs: string): Promise<{ build: Outcome; pack: Outcome }> {
  const build = await succeed(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, env: process.env });
  const [pnpm, pnpmArgs] = pnpmCommand();
  const pack = await succeed(pnpm, [
    ...pnpmArgs, "--recursive", "--filter", "./packages/*", ...PRIVATE.flatMap((name) => ["--filter", `!./packages/${name}`]),
    "pack", "--pack-destination", tarballs,
  ], { cwd: ROOT, env: process.env });
  return { build, pack };
}

/**
 * The workspace's better-sqlite3 binary packed as prebuild-install looks for a local prebuild
 * (`<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` holding build/Release/*.node),
 * in `dir`; the version it was built for, or undefined if the workspace has no binary.
 */
export async function prebuiltSqlite(dir: string): Promise<string | undefined> {
  const requireFromStore = createRequire(join(ROOT, "packages/adapter-sqlite/package.json"));
  const manifest = requireFromStore.resolve("better-sqlite3/package.json");
  const home = resolve(manifest, "..");
  if (!existsSync(join(home, "build/Release/better_sqlite3.node"))) return undefined;
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  mkdirSync(dir, { recursive: true });
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await succeed("tar", ["-czf", join(dir, file), "-C", home, "build/Release/better_sqlite3.node"], { cwd: home });
  return version;
}

/**
 * The environment of npm (and of the commands that run it) in an app outside the workspace:
 * its third-party packages from the workspace's registry through a cache of the app's own,
 * better-sqlite3's binary from `prebuilds` (prebuiltSqlite).
 */
export function npmEnv(app: string, registry: WorkspaceRegistry, prebuilds: string): NodeJS.ProcessEnv {
  return {
    ...outsideEnv(),
    npm_config_registry: `${registry.url}/`,
    npm_config_cache: join(app, ".npm-cache"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_better_sqlite3_local_prebuilds: prebuilds,
  };
}

/** The version of a package the workspace installed (what the workspace's registry serves of it). */
export function workspaceVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}
