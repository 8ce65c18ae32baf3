import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BENCH_LOGIN, BENCH_STRUCTURE, writeBenchBundle } from "../generate-bundle.ts";

const dir = mkdtempSync(join(tmpdir(), "bench-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const generate = (name: string, count: number, seed?: number) => {
  const file = join(dir, name);
  const bytes = writeBenchBundle(file, { count, ...(seed === undefined ? {} : { seed }) });
  const text = readFileSync(file, "utf8");
  return { bytes, text, json: JSON.parse(text) };
};

describe("writeBenchBundle", () => {
  it("writes the same bytes for the same count and seed", () => {
    const first = generate("a.json", 1500);
    const second = generate("b.json", 1500);
    expect(second.text).toBe(first.text);
    expect(first.bytes).toBe(Buffer.byteLength(first.text));
    expect(generate("c.json", 1500, 7).text).not.toBe(first.text);
  });

  it("writes N elements of BENCH_ARTICLE with every field, and the two accounts", () => {
    const { json } = generate("d.json", 1001);
    expect(json.elements).toHaveLength(1001);
    expect(json.elements[1000].name).toBe("BENCH_ART_001001");
    expect(json.accounts.users.map((user: { login: string }) => user.login)).toEqual([BENCH_LOGIN, "reader"]);
    expect(json.structures[0]).toMatchObject({ name: BENCH_STRUCTURE, titleField: "ba_title" });
    const kinds = json.enumerates.BENCH_KIND.map((item: { key: string }) => item.key);
    for (const element of json.elements) {
      const { ba_title, ba_body, ba_words, ba_date, ba_kind } = element.values;
      expect(ba_title).toMatch(/^[A-Z][a-z ]+ \d+$/);
      expect(ba_body.split(" ")).toHaveLength(ba_words);
      expect(ba_words).toBeGreaterThanOrEqual(200);
      expect(ba_words).toBeLessThanOrEqual(400);
      expect(ba_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(kinds).toContain(ba_kind);
    }
  });
});
