import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { npmEnv, outcome, packWorkspace, prebuiltSqlite, PUBLISHED, ROOT, succeed, workspaceVersion } from "./packing.ts";
import { startWorkspaceRegistry, type WorkspaceRegistry } from "./workspace-registry.ts";

/*
 * The packages as a user gets them: built, packed by `pnpm pack` (which turns workspace:*
 * into versions), installed by npm from the tarballs into a new app outside the workspace,
 * and used there as test/packed-app does (a domain test on the in-memory store, an app on
 * SQLite and on PostgreSQL, the `lineage` command). better-sqlite3 has no prebuilt binary npm
 * can fetch here, and building it from source takes a minute or more: its install script
 * (prebuild-install) is given the binary the workspace built, as a local prebuild of the
 * same version, Node ABI and platform. Where that binary is missing or does not match, npm
 * builds from source as for any app.
 */

const FIXTURE = join(import.meta.dirname, "packed-app");

let app: string;
let registry: WorkspaceRegistry | undefined;
const timings: string[] = [];

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), "lineage-packed-"));
  const tarballs = join(app, "tarballs");
  const { build, pack } = await packWorkspace(tarballs);
  cpSync(FIXTURE, app, { recursive: true });
  const prebuilds = join(app, "prebuilds");
  const sqliteVersion = await prebuiltSqlite(prebuilds);
  // The version the local prebuild was made for, in place of the newest that the range allows.
  const overrides = sqliteVersion ? { "better-sqlite3": sqliteVersion } : {};
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "packed-app", private: true, type: "module", overrides }, null, 2)}\n`);
  registry = await startWorkspaceRegistry(ROOT);
  // The app's own test runner, the version the workspace uses (@lineage/core/testing's contracts are vitest suites).
  const install = await succeed("npm", [
    "install", ...readdirSync(tarballs).map((file) => join(tarballs, file)), `vitest@${workspaceVersion("vitest")}`,
  ], { cwd: app, env: npmEnv(app, registry, prebuilds) });
  // A build from source leaves node-gyp's object files beside the binary; a prebuild does not.
  const fromSource = existsSync(join(app, "node_modules/better-sqlite3/build/Release/obj.target"));
  timings.push(`build ${build.seconds.toFixed(1)} s`, `pack ${pack.seconds.toFixed(1)} s`,
    `npm install ${install.seconds.toFixed(1)} s (${registry.served()} packages from the workspace's registry, better-sqlite3 ${fromSource ? "built from source" : "from the workspace's binary"})`);
}, 900_000);

afterAll(async () => {
  console.log(`packed install: ${timings.join(", ")}`);
  await registry?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

describe("the packages installed from their tarballs, outside the workspace", () => {
  it("are each a tarball with the built code, its declarations, a README and the licence, and no workspace version", () => {
    for (const name of PUBLISHED) {
      const installed = join(app, "node_modules/@lineage", name);
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
        private?: boolean; license?: string; version?: string; dependencies?: Record<string, string>;
      };
      expect(manifest, name).toMatchObject({ license: "MIT", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(manifest.private, name).toBeUndefined();
      expect(Object.values(manifest.dependencies ?? {}).filter((range) => range.startsWith("workspace:")), name).toEqual([]);
      for (const file of ["dist/index.js", "dist/index.d.ts", "README.md", "LICENSE"]) expect(existsSync(join(installed, file)), `${name}/${file}`).toBe(true);
      expect(existsSync(join(installed, "src")), `${name} ships no sources`).toBe(false);
    }
    // What the code reads beside itself at run time.
    for (const file of ["adapter-sqlite/drizzle/meta/_journal.json", "adapter-postgres/drizzle/meta/_journal.json", "adapter-images/dist/jimp-worker.mjs", "cli/bin/lineage.mjs"]) {
      expect(existsSync(join(app, "node_modules/@lineage", file)), file).toBe(true);
    }
  });

  it("answer `lineage --help` from the built JavaScript, with no TypeScript loader installed", async () => {
    expect(existsSync(join(app, "node_modules/tsx"))).toBe(false);
    const help = await succeed(join(app, "node_modules/.bin/lineage"), ["--help"], { cwd: app });
    expect(help.stdout).toMatch(/serve/);
    timings.push(`lineage --help ${help.seconds.toFixed(2)} s`);
  });

  it("refuse a TypeScript configuration without tsx, saying how to load it", async () => {
    writeFileSync(join(app, "lineage.config.ts"), "export default {};\n");
    const serve = await outcome(join(app, "node_modules/.bin/lineage"), ["serve", "--data", join(app, "serve-data"), "--config", "lineage.config.ts"], { cwd: app });
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toMatch(/install tsx/);
  });

  it("run the app's domain test on the in-memory store of @lineage/core/testing", async () => {
    const test = await succeed(join(app, "node_modules/.bin/vitest"), ["run", "recipes.test.ts"], { cwd: app });
    expect(test.stdout).toMatch(/2 passed/);
  });

  it("give the app's TypeScript their declarations", async () => {
    await succeed(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: app });
  });

  it("give an app the client and the types `lineage types` writes: typed end to end, a misspelt field a compile error", async () => {
    await succeed(join(app, "node_modules/.bin/lineage"), ["types", join(ROOT, "examples/demo/bundle.json"), "--out", join(app, "lineage-types.ts")], { cwd: app });
    const usage = [
      'import { createLineageClient, LineageApiError } from "@lineage/client";',
      'import type { Article } from "./lineage-types.ts";',
      'const client = createLineageClient({ baseUrl: "http://127.0.0.1:1", auth: { type: "basic", login: "alice", password: "alice" } });',
      "export async function retitle(): Promise<string> {",
      '  const article = await client.elements.update<Article>("ART_HELLO", { ar_title: "Bonjour" });',
      "  return article.values.ar_title;",
      "}",
      "export const isApiError = (error: unknown) => error instanceof LineageApiError;",
      "",
    ].join("\n");
    writeFileSync(join(app, "client-app.ts"), usage);
    writeFileSync(join(app, "tsconfig.client.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, allowImportingTsExtensions: true, lib: ["ES2023", "DOM"], types: [] },
      files: ["client-app.ts"],
    }));
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    await succeed(process.execPath, [tsc, "-p", "tsconfig.client.json"], { cwd: app });
    writeFileSync(join(app, "client-app.ts"), usage.replace("{ ar_title: \"Bonjour\" }", "{ ar_titel: \"Bonjour\" }"));
    const typo = await outcome(process.execPath, [tsc, "-p", "tsconfig.client.json"], { cwd: app });
    expect(typo.code).not.toBe(0);
    expect(typo.stdout).toMatch(/client-app\.ts.*ar_titel/);
    // The built client loads from its tarball, with no dependency of its own.
    const script = 'import { createLineageClient, LineageApiError } from "@lineage/client"; console.log(typeof createLineageClient, LineageApiError.name);';
    const ran = await succeed(process.execPath, ["--input-type=module", "-e", script], { cwd: app });
    expect(ran.stdout.trim()).toBe("function LineageApiError");
  }, 240_000);

  it("serve an app on SQLite: an element, a full-text search, an image resized in a worker thread, a built-in icon", async () => {
    const served = await succeed(process.execPath, ["app.mjs", join(app, "on-sqlite")], { cwd: app });
    expect(JSON.parse(served.stdout.trim().split("\n").at(-1)!)).toMatchObject({
      imported: { created: 1 },
      element: { status: 200, title: "Omelette aux herbes" },
      search: { status: 200, titles: ["Omelette aux herbes"] },
      image: { status: 200, type: "image/png", header: { format: "png", width: 2, height: 1 } },
      icon: { status: 200, type: "image/png" },
    });
  });

  it("serve the same app on PostgreSQL, migrating an empty database from the packed migrations", async () => {
    const url = new URL(inject("postgresUrl"));
    const database = `lineage_test_packed_${process.pid}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query(`create database ${database}`);
    } finally {
      await admin.end();
    }
    url.pathname = `/${database}`;
    mkdirSync(join(app, "on-postgres"));
    const served = await succeed(process.execPath, ["app.mjs", join(app, "on-postgres"), "--database", url.toString()], { cwd: app });
    expect(JSON.parse(served.stdout.trim().split("\n").at(-1)!)).toMatchObject({
      element: { status: 200, title: "Omelette aux herbes" },
      search: { status: 200, titles: ["Omelette aux herbes"] },
    });
  });
});
