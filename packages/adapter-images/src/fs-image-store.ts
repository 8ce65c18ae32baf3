import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { LineageError, relativeAssetPath, type ImageStore } from "@lineage/core";

export interface FsImageStoreOptions {
  /** The server Images directory; without one, only the built-in assets are served. */
  readonly imagesDir?: string | undefined;
  /**
   * Assets Lineage ships (the MIME-type icons of file values, mime/png/<name>.png), served when the
   * Images directory has no file of that path: this package's own by default, null for none.
   */
  readonly builtinDir?: string | null;
  /** Where resized variants are kept (under the data directory). */
  readonly cacheDir: string;
}

/** The assets this package ships, beside its sources (src/ or dist/). */
const BUILTIN_ASSETS = fileURLToPath(new URL("../assets/", import.meta.url));

const VARIANT_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

const isMissing = (error: unknown) => ["ENOENT", "ENOTDIR", "ELOOP", "ENAMETOOLONG"].includes((error as NodeJS.ErrnoException).code ?? "");

/** True when `path` is `root` itself or inside it. */
const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/**
 * An ImageStore on the file system: assets read from the Images directory, else from the built-in
 * assets (in each, the path and the real path, symbolic links resolved, must stay inside it), variants as files under `cacheDir`
 * named by key, written to a temporary name then renamed.
 */
export function createFsImageStore(options: FsImageStoreOptions): ImageStore {
  const builtin = options.builtinDir === undefined ? BUILTIN_ASSETS : options.builtinDir;
  const roots = [options.imagesDir, builtin ?? undefined].filter((dir): dir is string => dir !== undefined).map((dir) => resolve(dir));
  const realRoots = new Map<string, Promise<string | undefined>>();
  const cacheDir = resolve(options.cacheDir);
  // Hashing a large asset on every request would cost more than serving it: remembered per file version.
  const hashes = new Map<string, { version: string; hash: string }>();

  /** The asset at `relative` under one root, or undefined when that root has no such file. */
  async function assetIn(root: string, relative: string, path: string) {
    const full = resolve(root, relative);
    if (!inside(root, full) || full === root) throw new LineageError("ROUTES0115", [path]);
    let realRoot = realRoots.get(root);
    if (!realRoot) {
      realRoot = realpath(root).catch(() => undefined);
      realRoots.set(root, realRoot);
    }
    const base = await realRoot;
    if (!base) return undefined;
    let real: string;
    try {
      real = await realpath(full);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!inside(base, real) || real === base) throw new LineageError("ROUTES0115", [path]);
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    const bytes = new Uint8Array(await readFile(real));
    const version = `${info.ino}:${info.size}:${info.mtimeMs}`;
    let known = hashes.get(real);
    if (known?.version !== version || bytes.byteLength !== info.size) {
      known = { version, hash: createHash("sha256").update(bytes).digest("hex") };
      hashes.set(real, known);
    }
    return { bytes, hash: known.hash, name: basename(full) };
  }

  const variantPath = (key: string) => {
    if (!VARIANT_KEY.test(key)) throw new Error(`invalid variant key "${key}"`);
    return join(cacheDir, key.slice(0, 2), key);
  };

  return {
    async asset(path) {
      const relative = relativeAssetPath(path);
      // The Images directory first: a deployment may replace a built-in asset with its own.
      for (const root of roots) {
        const found = await assetIn(root, relative, path);
        if (found) return found;
      }
      return undefined;
    },
    async variant(key) {
      try {
        return new Uint8Array(await readFile(variantPath(key)));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async saveVariant(key, bytes) {
      const path = variantPath(key);
      await mkdir(join(path, ".."), { recursive: true });
      const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, bytes, { flag: "wx" });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}
