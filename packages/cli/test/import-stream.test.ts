import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BundlePart } from "@lineage/core";
import { openBundleStream } from "../src/bundle-stream.ts";
import { LINEAGE } from "./lineage-command.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-import-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const NOTE = { name: "NOTE", titleField: "no_title", fields: [{ id: "no_title", type: "text" }, { id: "no_next", type: "docid" }] };

/** A bundle of `count` notes, its elements before its definitions; each note names the next one. */
function writeNotes(file: string, count: number): void {
  const notes = Array.from({ length: count }, (_, i) => JSON.stringify({
    structure: "NOTE", name: `N${i}`, values: { no_title: `Note ${i} é 😀`, ...(i + 1 < count ? { no_next: `N${i + 1}` } : {}) },
  }));
  writeFileSync(file, `{"elements":[\n${notes.join(",\n")}\n],\n"structures":${JSON.stringify([NOTE])}}\n`);
}

/** Runs `lineage ARGS` as a child process, its stdout and stderr not terminals. */
function lineage(args: readonly string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...LINEAGE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, out, err }));
  });
}

async function partsOf(read: AsyncIterable<BundlePart>): Promise<BundlePart[]> {
  const parts: BundlePart[] = [];
  for await (const part of read) parts.push(part);
  return parts;
}

describe("openBundleStream", () => {
  it("gives the sections and the elements in batches, in any key order, the first read and the replays alike; close removes the staging", async () => {
    const dir = tempDir();
    const file = join(dir, "notes.json");
    writeNotes(file, 2500);
    const staging = join(dir, "data");
    const bytes: number[] = [];
    const stream = openBundleStream(file, { stagingDir: staging, onBytes: (read) => bytes.push(read) });
    const first = await partsOf(stream.read());
    const again = await partsOf(stream.read());
    for (const parts of [first, again]) {
      const batches = parts.flatMap((part) => (part.kind === "elements" ? [part] : []));
      expect(batches.map((batch) => [batch.first, batch.entries.length])).toEqual([[0, 1000], [1000, 1000], [2000, 500]]);
      expect(batches[2]?.entries.at(-1)).toEqual({ structure: "NOTE", name: "N2499", values: { no_title: "Note 2499 é 😀" } });
      expect(parts.filter((part) => part.kind === "section")).toEqual([{ kind: "section", key: "structures", value: [NOTE] }]);
    }
    expect(bytes.at(-1)).toBeGreaterThan(100_000);
    expect(readdirSync(staging)).toHaveLength(1);
    await stream.close();
    expect(readdirSync(staging)).toEqual([]);
  });

  it("gives a section for `elements` that is no list, a root part for a bundle that is no object, and names the file of bad JSON", async () => {
    const dir = tempDir();
    const read = async (text: string) => {
      const file = join(dir, "bundle.json");
      writeFileSync(file, text);
      const stream = openBundleStream(file, { stagingDir: dir });
      try {
        return await partsOf(stream.read());
      } finally {
        await stream.close();
      }
    };
    expect(await read('\uFEFF {"elements": {"a": 1}, "enumerates": {}}')).toEqual([
      { kind: "section", key: "elements", value: { a: 1 } }, { kind: "section", key: "enumerates", value: {} },
    ]);
    expect(await read("[1, 2]")).toEqual([{ kind: "root", value: [] }]);
    await expect(read("  ")).rejects.toThrow(/bundle\.json: the file holds no JSON value/);
    await expect(read('{"structures": [}')).rejects.toThrow(/bundle\.json: Unexpected/);
    await expect(read('{"elements": [], "elements": []}')).rejects.toThrow(/the key "elements" appears twice/);
  });
});

describe("lineage import of a streamed bundle", () => {
  it("imports a bundle of several batches, elements before definitions, showing a line per tenth on stderr without a terminal", async () => {
    const dir = tempDir();
    const file = join(dir, "notes.json");
    writeNotes(file, 3500);
    const data = join(dir, "data");
    const first = await lineage(["import", "--data", data, file]);
    expect(first.err).not.toMatch(/Error|at /);
    expect(first.status).toBe(0);
    expect(first.out).toMatch(/elements: 3500 created, 0 updated, 0 unchanged/);
    const lines = first.err.trim().split("\n");
    for (const phase of ["checking", "writing"]) {
      const percents = lines.filter((line) => line.startsWith(`${file}: ${phase} `)).map((line) => Number(/ (\d+)% /.exec(line)?.[1]));
      // A batch is 1000 of 3500 elements: each tenth crossed gets its line, the last says 100 %.
      expect(percents).toEqual([28, 57, 85, 100]);
    }
    expect(lines.filter((line) => line.startsWith(`${file}: reading `)).at(-1)).toMatch(/ 100% \d+\.\d\/\d+\.\d MB$/);
    expect(lines.at(-1)).toBe(`${file}: writing 100% 3500/3500 elements`);
    // Nothing staged is left behind.
    expect(readdirSync(data).filter((name) => name.startsWith(".import-"))).toEqual([]);

    const again = await lineage(["import", "--data", data, file]);
    expect(again.out).toMatch(/elements: 0 created, 0 updated, 3500 unchanged/);
  }, 120_000);

  it("refuses a bad bundle whole, its problems by JSON path wherever the definitions stand, and writes nothing", async () => {
    const dir = tempDir();
    const file = join(dir, "bad.json");
    const elements = Array.from({ length: 1500 }, (_, i) => ({ structure: "NOTE", name: `N${i}`, values: { no_title: `Note ${i}` } }));
    elements.push({ structure: "NOTE", name: "N1", values: { no_title: "again" } }, { structure: "NOTE", name: "N_BAD", values: { no_next: "N_NONE" } } as never);
    writeFileSync(file, JSON.stringify({ elements, structures: [NOTE], accounts: { users: [{ login: "dora" }] } }));
    const data = join(dir, "data");
    const result = await lineage(["import", "--data", data, file]);
    expect(result.status).toBe(1);
    expect(result.err).toContain("lineage import: Invalid bundle: 2 problems, the first at $.elements[1500].name");
    expect(result.err).toContain('  $.elements[1500].name: duplicate logical name "N1" (first at $.elements[1])');
    expect(result.err).toMatch(/ {2}\$\.elements\[1501\]\.values\.no_next: .*N_NONE/);
    expect(existsSync(join(data, "lineage.sqlite"))).toBe(true);
    const list = await lineage(["user", "list", "--data", data]);
    expect(list.out).not.toContain("dora");
    expect(readdirSync(data).filter((name) => name.startsWith(".import-"))).toEqual([]);
  }, 120_000);
});
