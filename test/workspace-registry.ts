import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

/*
 * An npm registry on loopback that serves only the packages the workspace's `pnpm install` already
 * put in node_modules/.pnpm, each packed on demand from its directory. An app outside the
 * workspace installs its third-party dependencies from it with npm's own resolution, so a packed
 * install needs no network: what CI fetched for `pnpm install` is all it uses. A package or a
 * version pnpm did not install answers 404, as a registry would, which npm accepts for the
 * optional dependencies of other platforms (esbuild's, sharp's) and reports for any other.
 */

const run = promisify(execFile);

interface LocalPackage {
  readonly manifest: Record<string, unknown> & { name: string; version: string; scripts?: Record<string, string>; bundleDependencies?: unknown; bundledDependencies?: unknown };
  /** The directory pnpm extracted it to. */
  readonly dir: string;
}

export interface WorkspaceRegistry {
  /** The registry's URL, for npm's `registry` setting. */
  readonly url: string;
  /** How many packages it served (name@version), to tell a test's report. */
  served(): number;
  close(): Promise<void>;
}

/** Every name@version of the workspace's virtual store, by name then version. */
function localPackages(root: string): Map<string, Map<string, LocalPackage>> {
  const store = join(root, "node_modules/.pnpm");
  const found = new Map<string, Map<string, LocalPackage>>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, "node_modules");
    if (!existsSync(modules)) continue;
    // Each entry holds its package beside links to its dependencies; the package is the one whose name the entry starts with.
    for (const first of readdirSync(modules)) {
      const dirs = first.startsWith("@") ? readdirSync(join(modules, first)).map((second) => join(modules, first, second)) : [join(modules, first)];
      for (const dir of dirs) {
        const file = join(dir, "package.json");
        if (!existsSync(file)) continue;
        const manifest = JSON.parse(readFileSync(file, "utf8")) as LocalPackage["manifest"];
        if (!manifest.name || !manifest.version || !entry.startsWith(`${manifest.name.replace("/", "+")}@${manifest.version}`)) continue;
        const versions = found.get(manifest.name) ?? new Map<string, LocalPackage>();
        versions.set(manifest.version, { manifest, dir });
        found.set(manifest.name, versions);
      }
    }
  }
  return found;
}

/**
 * The package's files as npm publishes them, under one top directory: each file whole (pnpm's
 * store links files of equal content together, and npm skips a tarball's hard links), without
 * pnpm's links (node_modules/, unless it bundles dependencies) nor what its own install script
 * built (build/ of a node-gyp package), which npm runs again in the app. Compressed fast: it
 * only crosses loopback.
 */
async function tarball(pkg: LocalPackage): Promise<Buffer> {
  const exclude: string[] = [];
  if (!pkg.manifest.bundleDependencies && !pkg.manifest.bundledDependencies) exclude.push("--exclude=./node_modules");
  if (pkg.manifest.scripts?.install) exclude.push("--exclude=./build");
  const { stdout } = await run("tar", ["-c", "--use-compress-program=gzip -1", "--hard-dereference", "-C", pkg.dir, "--transform=s,^\\.,package,", ...exclude, "."], { encoding: "buffer", maxBuffer: 1024 * 1024 * 1024 });
  return stdout;
}

/** The tarball from the cache, or packed and written there whole (a rename: runs side by side never read half a file). */
async function cachedTarball(pkg: LocalPackage, file: string): Promise<Buffer> {
  if (existsSync(file)) return readFile(file);
  const data = await tarball(pkg);
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, file);
  return data;
}

const compareVersions = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/** Starts the registry on a free loopback port; `root` is the workspace. */
export async function startWorkspaceRegistry(root: string): Promise<WorkspaceRegistry> {
  const packages = localPackages(root);
  const tarballs = new Map<string, Promise<Buffer>>();
  // Packed once per version and kept beside pnpm's own cache: the next run (and the other packed tests) read them.
  const cache = join(root, "node_modules/.cache/workspace-registry");
  mkdirSync(cache, { recursive: true });
  const packed = (pkg: LocalPackage) => {
    const key = `${pkg.manifest.name}@${pkg.manifest.version}`;
    let made = tarballs.get(key);
    if (!made) tarballs.set(key, (made = cachedTarball(pkg, join(cache, `${key.replace("/", "+")}.tgz`))));
    return made;
  };
  let url = "";

  /** Without integrity: npm computes it from the tarball, which is packed only for the versions it picks. */
  function packument(name: string): unknown {
    const versions = packages.get(name);
    if (!versions) return undefined;
    const entries = [...versions.values()].map((pkg) => [pkg.manifest.version, {
      ...pkg.manifest,
      dist: { tarball: `${url}/-/${encodeURIComponent(name)}/${pkg.manifest.version}.tgz` },
    }] as const);
    const ordered = [...versions.keys()].sort(compareVersions);
    const latest = ordered.filter((version) => !version.includes("-")).at(-1) ?? ordered.at(-1)!;
    return { name, "dist-tags": { latest }, versions: Object.fromEntries(entries) };
  }

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://registry").pathname).slice(1);
    const answer = async () => {
      const file = /^-\/(.+)\/([^/]+)\.tgz$/.exec(path);
      if (file) {
        const pkg = packages.get(file[1]!)?.get(file[2]!);
        if (!pkg) return response.writeHead(404).end();
        const data = await packed(pkg);
        return response.writeHead(200, { "content-type": "application/octet-stream", "content-length": data.length }).end(data);
      }
      const body = packument(path);
      if (!body) return response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    answer().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    served: () => tarballs.size,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
