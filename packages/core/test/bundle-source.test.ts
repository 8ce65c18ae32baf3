import { describe, expect, it } from "vitest";
import { MAX_ELEMENT_PROBLEMS } from "../src/bundle/problems/bundle-check.ts";
import type { BundlePart, BundleSource } from "../src/bundle/bundle-source.ts";
import type { ImportProgress } from "../src/bundle/import-progress.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import { snapshot, testPlatform } from "../src/testing/bundle-helpers.ts";

const PERSON = {
  name: "PERSON", titleField: "pe_name",
  fields: [{ id: "pe_name", type: "text" }, { id: "pe_friend", type: "docid", structure: "PERSON" }, { id: "pe_age", type: "int" }],
};

/** A source as a streaming reader makes one: the elements first, in batches of `batch`, then the definitions; counts its reads. */
function streamed(elements: readonly unknown[], definitions: Record<string, unknown>, batch = 3): BundleSource & { reads: number } {
  const source = {
    reads: 0,
    async *read(): AsyncGenerator<BundlePart> {
      source.reads++;
      for (let first = 0; first < elements.length; first += batch) yield { kind: "elements", first, entries: elements.slice(first, first + batch) };
      for (const [key, value] of Object.entries(definitions)) yield { kind: "section", key, value };
    },
  };
  return source;
}

const person = (i: number, friend?: number) => ({
  structure: "PERSON", name: `P${i}`, values: { pe_name: `Person ${i}`, ...(friend === undefined ? {} : { pe_friend: `P${friend}` }) },
});

const problemsOf = async (run: Promise<unknown>) => {
  const error = await run.catch((e: unknown) => e);
  if (!isLineageError(error)) throw new Error(`expected a LineageError, got ${String(error)}`);
  expect(error.code).toBe("BUNDLE0001");
  return (error.data as { problems: { path: string; message: string }[] }).problems;
};

describe("importBundleSource", () => {
  it("imports elements given before the definitions they need, with docid values naming elements of later batches", async () => {
    const platform = testPlatform();
    // Each person names the next one (a later batch for every third), the last names the first: a cycle across batches.
    const elements = Array.from({ length: 10 }, (_, i) => person(i, (i + 1) % 10));
    const progress: ImportProgress[] = [];
    const source = streamed(elements, { structures: [PERSON] });
    const report = await platform.bundles.importSource(source, { readFile: () => undefined, onProgress: (p) => progress.push(p) });
    expect(report.elements).toEqual({ created: 10, updated: 0, unchanged: 0, overwritten: 0 });
    expect(report.structures).toEqual({ created: 1, updated: 0, unchanged: 0 });
    for (let i = 0; i < 10; i++) {
      const element = await platform.store.elements.latestByName(`P${i}`);
      const friend = await platform.store.elements.latestByName(`P${(i + 1) % 10}`);
      expect(element?.values.pe_friend).toBe(friend?.initid);
    }
    // Read, checked, written, then the values that waited for later batches.
    expect(source.reads).toBe(4);
    expect(progress.filter((p) => p.phase === "writing").map((p) => p.done)).toEqual([3, 6, 9, 10]);
    expect(progress.at(-1)).toEqual({ phase: "writing", done: 10, total: 10 });

    const again = streamed(elements, { structures: [PERSON] });
    expect((await platform.bundles.importSource(again, { readFile: () => undefined })).elements).toEqual({ created: 0, updated: 0, unchanged: 10, overwritten: 0 });
    expect(again.reads).toBe(3);
  });

  it("refuses a bundle whole, every problem by its JSON path, whichever batch and part it is in, and writes nothing", async () => {
    const platform = testPlatform();
    await platform.bundles.importSource(streamed([person(0)], { structures: [PERSON] }), { readFile: () => undefined });
    const before = await snapshot(platform.store);
    const elements = [
      person(1, 2), { structure: "PERSON", name: "P2", values: { pe_age: "old" } }, person(3, 99),
      { structure: "PERSON", name: "P1" }, { structure: "BEAST", name: "B1" }, { structure: "PERSON", colour: "red" },
    ];
    const definitions = { structures: [PERSON, { ...PERSON, name: "PERSON" }], accounts: { users: [{ login: "new-user" }] }, colour: "red" };
    const problems = await problemsOf(platform.bundles.importSource(streamed(elements, definitions, 2), { readFile: () => undefined }));
    expect(problems).toEqual([
      { path: "$.elements[5].colour", message: 'unknown key "colour"' },
      { path: "$.colour", message: 'unknown key "colour"' },
      { path: "$.structures[1].name", message: 'duplicate structure "PERSON" (first at $.structures[0])' },
      { path: "$.elements[1].values.pe_age", message: expect.stringContaining('"old" is not an integer') },
      { path: "$.elements[2].values.pe_friend", message: expect.stringContaining("P99") },
      { path: "$.elements[3].name", message: 'duplicate logical name "P1" (first at $.elements[0])' },
      { path: "$.elements[4].structure", message: 'unknown structure "BEAST"' },
    ]);
    expect(await snapshot(platform.store)).toEqual(before);
    expect(await platform.store.accounts.byLogin("new-user")).toBeUndefined();
  });

  it("lists the first problems of a bundle with very many, then how many more", async () => {
    const platform = testPlatform();
    const elements = Array.from({ length: MAX_ELEMENT_PROBLEMS + 5 }, (_, i) => ({ structure: "PERSON", name: `P${i}`, values: { pe_age: "x" } }));
    const problems = await problemsOf(platform.bundles.importSource(streamed(elements, { structures: [PERSON] }, 1000), { readFile: () => undefined }));
    expect(problems).toHaveLength(MAX_ELEMENT_PROBLEMS + 1);
    expect(problems.at(-2)?.path).toBe(`$.elements[${MAX_ELEMENT_PROBLEMS - 1}].values.pe_age`);
    expect(problems.at(-1)).toEqual({ path: "$.elements", message: "5 more problems in the elements, not listed" });
  });
});
