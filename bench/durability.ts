import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { createPlatform, createScryptPasswordHasher, type Platform, type Principal, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { machineLine, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { percentile } from "./load.ts";

/*
 * `pnpm bench:durability`: what SQLite's `synchronous` setting costs a write (issue 23; docs/limits.md,
 * Durability). Two stores in the same temporary directory (so on the same disk), one with
 * synchronous=FULL (the default of `lineage serve`), one with NORMAL, each with one structure and
 * --elements elements. In --rounds rounds, the two in alternating order, each takes --writes writes
 * one after the other (each awaited, as one client editing): PUTs (platform.elements.update: one
 * transaction saving the element, marking it for the search index and writing its history entry) on
 * the elements in turn, then as many bare commits (a transaction writing one history entry).
 * Writes the section "## Durability: synchronous FULL vs NORMAL (issue 23)" of docs/benchmarks.md.
 * Options: --writes N (500), --rounds N (5), --elements N (100), --no-docs.
 */

const SECTION = "## Durability: synchronous FULL vs NORMAL (issue 23)";
const MODES = ["full", "normal"] as const;
type Mode = (typeof MODES)[number];
type Kind = "PUT" | "commit";

const { values: args } = parseArgs({
  options: {
    writes: { type: "string", default: "500" }, rounds: { type: "string", default: "5" }, elements: { type: "string", default: "100" },
    "no-docs": { type: "boolean", default: false },
  },
});
const writes = positive("writes", args.writes, 100_000);
const rounds = positive("rounds", args.rounds, 100);
const elementCount = positive("elements", args.elements, 100_000);

/** About 2 kB of text, the size of a short article's body. */
const BODY = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(36);

interface Subject {
  readonly mode: Mode;
  readonly store: Store;
  readonly platform: Platform;
  readonly admin: Principal;
  readonly initids: number[];
}

async function openSubject(mode: Mode, dataDir: string): Promise<Subject> {
  const store = openSqliteStore({ dataDir, synchronous: mode });
  const platform = createPlatform({ store, hasher: createScryptPasswordHasher({ N: 1024 }) });
  await store.transaction((tx) => tx.catalog.saveStructure({
    name: "BENCH_NOTE", title: "Note", titleField: "bn_title",
    fields: [{ id: "bn_title", type: "text" }, { id: "bn_body", type: "longtext" }],
  }));
  const account = await platform.accounts.add({ login: "bench", password: "bench", roles: ["admin"] });
  const admin = await platform.accounts.principalOf(account);
  const initids: number[] = [];
  for (let i = 0; i < elementCount; i++) {
    initids.push((await platform.elements.create(admin, { structure: "BENCH_NOTE", values: { bn_title: `Note ${i}`, bn_body: BODY } })).initid);
  }
  return { mode, store, platform, admin, initids };
}

/** Milliseconds of each of `writes` writes of one kind, one after the other. */
async function measure(subject: Subject, kind: Kind, round: number): Promise<number[]> {
  const { platform, store, admin, initids } = subject;
  const times: number[] = [];
  for (let i = 0; i < writes; i++) {
    const initid = initids[i % initids.length] as number;
    const started = performance.now();
    if (kind === "PUT") {
      await platform.elements.update(admin, String(initid), { values: { bn_title: `Note ${initid}, round ${round}, write ${i}`, bn_body: BODY } });
    } else {
      await store.transaction((tx) => tx.elements.appendHistory({
        initid, revisionId: initid, revision: 0, accountId: admin.account.id, accountName: "bench",
        date: new Date().toISOString(), level: "notice", code: null, comment: `Bare commit ${round}.${i}`,
      }));
    }
    times.push(performance.now() - started);
  }
  return times;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** What the temporary directory lives on, as `df -T` tells it. */
function diskOf(dir: string): string {
  const lines = spawnSync("df", ["-T", dir], { encoding: "utf8" }).stdout?.trim().split("\n") ?? [];
  const [device, type] = (lines[1] ?? "").split(/\s+/);
  return device && type ? `${type} on ${device}` : "unknown";
}

async function main(): Promise<void> {
  const tempDir = mkdtempSync(join(tmpdir(), "lineage-durability-"));
  try {
    const subjects = await Promise.all(MODES.map((mode) => openSubject(mode, join(tempDir, mode))));
    const samples = new Map<string, number[]>();
    const roundMeans = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        for (const kind of ["PUT", "commit"] as const) {
          const times = await measure(subject, kind, round);
          const key = `${kind} ${subject.mode}`;
          samples.set(key, [...(samples.get(key) ?? []), ...times]);
          roundMeans.set(key, [...(roundMeans.get(key) ?? []), mean(times)]);
        }
      }
      console.log(`round ${round + 1}/${rounds}: ${[...roundMeans].map(([key, means]) => `${key} ${ms(means.at(-1) as number)} ms`).join(", ")}`);
    }
    for (const subject of subjects) await subject.store.close();

    const row = (kind: Kind, mode: Mode) => {
      const times = samples.get(`${kind} ${mode}`) as number[];
      const sorted = Float64Array.from(times).sort();
      const perRound = median(roundMeans.get(`${kind} ${mode}`) as number[]);
      return { kind, mode, count: times.length, perRound, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const rows = (["PUT", "commit"] as const).flatMap((kind) => MODES.map((mode) => row(kind, mode)));
    const cost = (kind: Kind) => {
      const [full, normal] = MODES.map((mode) => rows.find((r) => r.kind === kind && r.mode === mode)!);
      return { full: full!, normal: normal!, extra: full!.perRound - normal!.perRound };
    };
    const put = cost("PUT");
    const commit = cost("commit");
    const date = new Date().toISOString().slice(0, 10);
    const flags = [args.writes !== "500" ? ` --writes ${writes}` : "", args.rounds !== "5" ? ` --rounds ${rounds}` : "", args.elements !== "100" ? ` --elements ${elementCount}` : ""].join("");
    const section = [
      SECTION,
      "",
      `Run on ${date}: \`pnpm bench:durability${flags}\` (two SQLite stores in WAL mode side by side, synchronous=FULL and NORMAL, ` +
        `${thousands(elementCount)} elements each with a 2 kB body; ${rounds} rounds alternating their order, each ${thousands(writes)} writes one after the other per kind and setting).`,
      "",
      `${machineLine()} Disk: ${diskOf(tempDir)} (the temporary directory).`,
      "",
      `| Write, one after the other | synchronous | writes | mean ms (median of the rounds) | p50 ms | p99 ms | writes/s |`,
      `|---|---|---|---|---|---|---|`,
      ...rows.map((r) => `| ${r.kind === "PUT" ? "PUT one element (updateElement)" : "bare commit (one history entry)"} | ${r.mode.toUpperCase()} | ${thousands(r.count)} | ${ms(r.perRound)} | ${ms(r.p50)} | ${ms(r.p99)} | ${thousands(1000 / r.perRound)} |`),
      "",
      `- The price of FULL: **${ms(put.extra)} ms more per PUT** (${ms(put.full.perRound)} against ${ms(put.normal.perRound)} ms), ` +
        `${ms(commit.extra)} ms per bare commit: the sync of the write-ahead log at each commit, which NORMAL leaves to checkpoints. ` +
        "Reads are not affected. docs/limits.md (Durability) says what each setting keeps after a crash.",
      "- SQLite commits one transaction at a time and each waits for its own sync (there is no group commit): with FULL the syncs alone bound one data directory to about " +
        `${thousands(1000 / commit.full.perRound)} commits per second on this disk, whatever the number of clients (${thousands(1000 / commit.normal.perRound)} with NORMAL).`,
      "- A sync costs what the disk makes it cost (its cache, whether it honours flushes, local or network): measure on your own before choosing NORMAL for speed.",
    ].join("\n");
    publishSection(section, { heading: SECTION, write: !args["no-docs"] });
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
