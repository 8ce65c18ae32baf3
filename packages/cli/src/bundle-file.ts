import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/** A bundle read from disk: its JSON and a reader for the files it names, confined to its folder. */
export interface BundleFile {
  readonly path: string;
  readonly json: unknown;
  readFile(relativePath: string): Uint8Array | undefined;
}

/**
 * Reads a bundle file whole (JSON.parse of one string: a bundle of a few hundred MB at most);
 * throws with the file name when it is not JSON. `lineage import` streams it instead (bundle-stream.ts).
 */
export function readBundleFile(path: string): BundleFile {
  const absolute = resolve(path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(absolute, "utf8"));
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  return { path: absolute, json, readFile: bundleFolderReader(absolute) };
}

/** The reader of the files a bundle names: relative to its folder, and confined to it. */
export function bundleFolderReader(bundlePath: string): (relativePath: string) => Uint8Array | undefined {
  const folder = dirname(resolve(bundlePath));
  return (relativePath) => {
    const target = resolve(folder, relativePath);
    const inside = relative(folder, target);
    if (isAbsolute(relativePath) || inside.startsWith("..") || isAbsolute(inside)) return undefined;
    try {
      return readFileSync(target);
    } catch {
      return undefined;
    }
  };
}
