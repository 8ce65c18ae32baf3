import { relativeAssetPath } from "../images/asset-path.ts";
import type { ImageStore, SourceImage } from "../ports/image-store.port.ts";

/** FNV-1a over the bytes, twice with different seeds: a content hash good enough for a fake. */
function contentHash(bytes: Uint8Array): string {
  const pass = (seed: number) => {
    let hash = seed;
    for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    return hash.toString(16).padStart(8, "0");
  };
  return `${pass(0x811c9dc5)}${pass(0x01234567)}${bytes.byteLength.toString(16).padStart(8, "0")}`;
}

/** An ImageStore in memory: assets by relative path, variants in a map. For domain tests without I/O. */
export function createMemoryImageStore(assets: Readonly<Record<string, Uint8Array>> = {}): ImageStore & { readonly variants: Map<string, Uint8Array> } {
  const variants = new Map<string, Uint8Array>();
  return {
    variants,
    async asset(path) {
      const relative = relativeAssetPath(path);
      const bytes = Object.hasOwn(assets, relative) ? assets[relative] : undefined;
      if (!bytes) return undefined;
      const source: SourceImage = { bytes, hash: contentHash(bytes), name: relative.split("/").pop() ?? relative };
      return source;
    },
    async variant(key) {
      return variants.get(key);
    },
    async saveVariant(key, bytes) {
      variants.set(key, bytes);
    },
  };
}
