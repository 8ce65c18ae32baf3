import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchIndexContract } from "@lineage/core/testing";
import { createMiniSearchIndex } from "../src/index.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lineage-search-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

searchIndexContract("MiniSearch", () => createMiniSearchIndex({ dir, log: () => {} }));

describe("MiniSearch snapshots", () => {
  const coverage = { fingerprint: "f", generation: 3, seq: 7 };

  it("writes one file per domain and generation, removing older generations", async () => {
    const index = createMiniSearchIndex({ dir, log: () => {} });
    index.reset("d", { ...coverage, generation: 2 });
    await index.persist("d");
    index.reset("d", coverage);
    await index.persist("d");
    expect(readdirSync(dir)).toEqual(["d.3.json"]);
  });

  it("tells why a corrupt, outdated or foreign snapshot is not used", async () => {
    const lines: string[] = [];
    const index = createMiniSearchIndex({ dir, log: (line) => lines.push(line) });
    index.reset("d", coverage);
    await index.persist("d");
    expect(await index.open("d", { fingerprint: "g", generation: 3 })).toBeUndefined();
    expect(await index.open("d", { fingerprint: "f", generation: 4 })).toBeUndefined();
    writeFileSync(join(dir, "d.3.json"), '{"format":1,"coverage":');
    expect(await index.open("d", { fingerprint: "f", generation: 3 })).toBeUndefined();
    writeFileSync(join(dir, "d.3.json"), '{"format":0}');
    expect(await index.open("d", { fingerprint: "f", generation: 3 })).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/another definition of the domain: rebuilding/),
      expect.stringMatching(/of another generation than 4: rebuilding/),
      expect.stringMatching(/is unreadable .*: rebuilding/),
      expect.stringMatching(/has format 0, not 1: rebuilding/),
    ]);
  });
});
