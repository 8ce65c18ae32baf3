/*
 * A bundle as the import reads it: its parts in document order, the element entries in batches,
 * so that a bundle of any size is checked and written with a batch of elements in memory at a
 * time. A source is read several times (see importBundleSource); the command line's reads a file
 * as it streams (packages/cli/src/bundle-stream.ts), bundleSourceOf wraps JSON already parsed.
 */

/** One part of a bundle. */
export type BundlePart =
  /** A root key of the bundle other than an `elements` list, with its value. */
  | { readonly kind: "section"; readonly key: string; readonly value: unknown }
  /** Consecutive entries of `elements`, the first being `$.elements[first]`. */
  | { readonly kind: "elements"; readonly first: number; readonly entries: readonly unknown[] }
  /** The whole bundle when it is not a JSON object (it is then refused); a list stands for any list. */
  | { readonly kind: "root"; readonly value: unknown };

/** A bundle read as parts; each `read()` goes through it from the start. */
export interface BundleSource {
  read(): AsyncIterable<BundlePart>;
}

/** Entries per batch of bundleSourceOf; other sources choose their own. */
export const ELEMENT_BATCH = 1000;

/**
 * A source over a bundle already parsed (`JSON.parse`), in batches of ELEMENT_BATCH elements.
 * @example
 * await importBundleSource(platform, bundleSourceOf(JSON.parse(text)), { readFile });
 */
export function bundleSourceOf(input: unknown): BundleSource {
  return {
    async *read() {
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        yield { kind: "root", value: input };
        return;
      }
      for (const [key, value] of Object.entries(input)) {
        if (key !== "elements" || !Array.isArray(value)) {
          yield { kind: "section", key, value };
          continue;
        }
        for (let first = 0; first < value.length; first += ELEMENT_BATCH) {
          yield { kind: "elements", first, entries: value.slice(first, first + ELEMENT_BATCH) };
        }
      }
    },
  };
}
