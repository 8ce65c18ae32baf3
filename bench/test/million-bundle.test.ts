import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMON_TERM, MILLION_STRUCTURE, PHRASE, RARE_TERM, writeLargeBundle, writeMillionBundle } from "../million-bundle.ts";

const dir = mkdtempSync(join(tmpdir(), "bench-million-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

describe("writeMillionBundle", () => {
  it("writes N elements of two short texts holding the searched terms in the shares the benchmark states", () => {
    const bytes = writeMillionBundle(join(dir, "a.json"), { count: 5000 });
    const bundle = read("a.json");
    expect(bytes).toBe(readFileSync(join(dir, "a.json")).length);
    expect(bundle.elements).toHaveLength(5000);
    expect(bundle.structures[0].name).toBe(MILLION_STRUCTURE);
    const texts: string[] = bundle.elements.map((e: { values: { mn_text: string } }) => e.values.mn_text);
    const share = (test: (text: string) => boolean) => texts.filter(test).length / texts.length;
    expect(share((text) => text.split(" ").includes(COMMON_TERM))).toBeGreaterThan(0.77);
    expect(share((text) => text.split(" ").includes(COMMON_TERM))).toBeLessThan(0.83);
    expect(share((text) => text.includes(PHRASE))).toBeGreaterThan(0.01);
    expect(texts.filter((text) => text.includes(RARE_TERM))).toHaveLength(1);
    expect(bytes / 5000).toBeGreaterThan(250);
    expect(bytes / 5000).toBeLessThan(450);
  });

  it("writes the same elements before the definitions when asked", () => {
    writeMillionBundle(join(dir, "b.json"), { count: 1500, elementsFirst: true });
    writeMillionBundle(join(dir, "c.json"), { count: 1500 });
    const [first, last] = [read("b.json"), read("c.json")];
    expect(Object.keys(first)[0]).toBe("elements");
    expect(Object.keys(last).at(-1)).toBe("elements");
    expect(first).toEqual(last);
  });

  it("writes the large bundle's elements with bodies of the size asked", () => {
    writeLargeBundle(join(dir, "d.json"), 3, 5000);
    const bodies: string[] = read("d.json").elements.map((e: { values: { ln_body: string } }) => e.values.ln_body);
    expect(bodies).toHaveLength(3);
    for (const body of bodies) expect(body.length).toBeGreaterThanOrEqual(5000);
  });
});
