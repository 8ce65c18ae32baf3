/**
 * The logical names of a bundle's elements, each with its first entry and that entry's structure:
 * what docid values of other entries are checked and resolved against, and what finds duplicate
 * names. Built while the elements stream by and kept for the whole import, so it costs little per
 * element: one map entry (name to index) and a structure number per entry.
 */
export class BundleNames {
  readonly #indexes = new Map<string, number>();
  /** Per entry index: 0 for none, else 1 + the position of its structure name in #structures. */
  #structureAt = new Uint32Array(1024);
  readonly #structures: string[] = [];
  readonly #structureIds = new Map<string, number>();

  /** Records `name` for the entry at `index`, unless an earlier entry has it: then answers that entry's index. */
  add(name: string, index: number, structure: string): number | undefined {
    const earlier = this.#indexes.get(name);
    if (earlier !== undefined) return earlier;
    this.#indexes.set(name, index);
    let id = this.#structureIds.get(structure);
    if (id === undefined) {
      id = this.#structures.push(structure);
      this.#structureIds.set(structure, id);
    }
    if (index >= this.#structureAt.length) {
      const grown = new Uint32Array(Math.max(index + 1, this.#structureAt.length * 2));
      grown.set(this.#structureAt);
      this.#structureAt = grown;
    }
    this.#structureAt[index] = id;
    return undefined;
  }

  has(name: string): boolean {
    return this.#indexes.has(name);
  }

  /** The index of the first entry named `name`. */
  indexOf(name: string): number | undefined {
    return this.#indexes.get(name);
  }

  /** The structure the first entry named `name` gives ("" when it gives none that is a string). */
  structureOf(name: string): string | undefined {
    const index = this.#indexes.get(name);
    if (index === undefined) return undefined;
    return this.#structures[(this.#structureAt[index] ?? 0) - 1] ?? "";
  }
}
