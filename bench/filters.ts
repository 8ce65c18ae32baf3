import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { createPlatform, systemPrincipal, type FilterInput, type Platform, type Principal, type Store } from "../packages/core/src/index.ts";
import { FLT_KEPT_DATABASE, FLT_ROW_READER, seedFltSqlite, withFltPostgres } from "./flt-million.ts";
import { positive } from "./bench-options.ts";
import { medianTime } from "./median-time.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";

/*
 * List filters at 1,000,000 elements, by `pnpm bench:filters`, on SQLite and on PostgreSQL, one
 * request at a time, through the list use case at the node (the filter parsed, rights, the store's
 * page, ten documents rendered):
 *  1. makes the structure FLT (a text, an enum, a date, a long text), a profile and two readers: one
 *     with every right (the system principal), one who may view one element in ten (a profile of
 *     their own on those, as lists' rights per element are benchmarked elsewhere);
 *  2. seeds N elements by bulk SQL with the store's indexes dropped, then makes them again (as an
 *     import of that size would leave them), and analyzes;
 *  3. for conditions that keep 50 %, 1 % and 0.01 % of the elements (equality on the state, on the
 *     enum field; a date range; `and` of the state and the enum), each with several orders, times
 *     the first page and the page at offset 10,000; then count=1 of the 50 % conditions; then the
 *     cases that may scan (`contains` on the long text, `or` across fields), documented as limits;
 *  4. writes the section "## List filters at 1,000,000 elements" of docs/benchmarks.md.
 * Options: --count N (1000000), --runs N (5), --store sqlite|postgres|both, --url URL (an existing
 * PostgreSQL server whose user may create databases), --no-docs, --keep DIR (seed into DIR once and keep it:
 * a later run with the same DIR and count opens the stores seeded before, migrating them to the code's schema, and
 * measures at once; seeding and indexing take minutes), --match TEXT (only the cases whose label, or "count=1",
 * holds TEXT: to study a few).
 */

const SECTION = "## List filters at 1,000,000 elements";
const TARGET_FIRST_MS = 20;
const TARGET_OFFSET_MS = 50;
const TARGET_COUNT_MS = 250;
const OFFSET = 10_000;

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" }, runs: { type: "string", default: "5" },
    store: { type: "string", default: "both" }, url: { type: "string" }, "no-docs": { type: "boolean", default: false },
    keep: { type: "string" }, match: { type: "string" },
  },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 100);
if (!["sqlite", "postgres", "both"].includes(args.store)) throw new Error(`--store takes sqlite, postgres or both, not "${args.store}"`);

// ---- the cases -------------------------------------------------------------------------------------------

type Share = "50 %" | "1 %" | "0.01 %";
const SHARES: readonly Share[] = ["50 %", "1 %", "0.01 %"];
const STATE: Record<Share, string> = { "50 %": "published", "1 %": "review", "0.01 %": "blocked" };
const ENUM: Record<Share, string> = { "50 %": "half", "1 %": "one", "0.01 %": "rare" };
/** Days of 10,000 that keep each share: [from, to). */
const DAYS: Record<Share, [number, number]> = { "50 %": [5000, 10000], "1 %": [2000, 2100], "0.01 %": [7775, 7776] };
const dayText = (day: number) => new Date(Date.UTC(2000, 0, 1 + day)).toISOString().slice(0, 10);

interface Case {
  readonly label: string;
  readonly filter: FilterInput;
  readonly orderBy: string;
  /** Held to the targets, or a figure of a documented limit. */
  readonly target: boolean;
}

function cases(): Case[] {
  const list: Case[] = [];
  for (const share of SHARES) {
    const state = { field: "state", operator: "eq", value: STATE[share] } as const;
    const category = { field: "f_enum", operator: "eq", value: ENUM[share] } as const;
    const [from, to] = DAYS[share];
    const range: FilterInput = { logic: "and", filters: [{ field: "f_date", operator: "gte", value: dayText(from) }, { field: "f_date", operator: "lt", value: dayText(to) }] };
    for (const orderBy of ["title:asc", "mdate:desc", "f_date:asc", "initid:desc"]) {
      list.push({ label: `state = ${STATE[share]} (${share}), ${orderBy}`, filter: state, orderBy, target: true });
      list.push({ label: `f_enum = ${ENUM[share]} (${share}), ${orderBy}`, filter: category, orderBy, target: true });
    }
    for (const orderBy of ["f_date:asc", "f_date:desc"]) list.push({ label: `f_date in ${share} of the days, ${orderBy}`, filter: range, orderBy, target: true });
    // Both conditions keep the same elements (the seed gives the same i the same state and key): the `and` keeps the share.
    for (const orderBy of ["title:asc", "mdate:desc"]) {
      list.push({ label: `state and f_enum (${share}), ${orderBy}`, filter: { logic: "and", filters: [state, category] }, orderBy, target: true });
    }
  }
  list.push({ label: "f_body contains \"ipsum dolor sit amet 12345 \", title:asc", filter: { field: "f_body", operator: "contains", value: "ipsum dolor sit amet 12345 " }, orderBy: "title:asc", target: false });
  list.push({ label: "title contains \"0001\", title:asc", filter: { field: "title", operator: "contains", value: "0001" }, orderBy: "title:asc", target: false });
  list.push({
    label: "state = blocked or f_date = 2013-09-10, title:asc", orderBy: "title:asc", target: false,
    filter: { logic: "or", filters: [{ field: "state", operator: "eq", value: "blocked" }, { field: "f_date", operator: "eq", value: dayText(5000) }] },
  });
  return list;
}

/** The median of `times` runs after a warm-up (medianTime), `--runs` by default. */
const median = (run: () => Promise<unknown> | unknown, times = runs): Promise<number> => medianTime(run, times);

interface Timing {
  readonly first: number;
  readonly offset: number;
}
interface Reader {
  readonly name: string;
  readonly principal: Principal;
}
interface StoreFigures {
  readonly name: string;
  readonly seconds: { seed: number; indexes: number };
  readonly pages: { c: Case; reader: string; timing: Timing }[];
  readonly counts: { label: string; reader: string; ms: number; total: number }[];
}

async function measure(store: Store): Promise<Pick<StoreFigures, "pages" | "counts">> {
  const platform: Platform = createPlatform({ store });
  const readers: Reader[] = [
    { name: "every right", principal: systemPrincipal() },
    { name: "one in ten", principal: (await platform.accounts.principal(FLT_ROW_READER))! },
  ];
  const page = (reader: Reader, c: Case, offset: number) =>
    platform.elements.list(reader.principal, { family: "FLT", filter: c.filter, orderBy: c.orderBy, slice: "10", offset: String(offset) });
  const pages: StoreFigures["pages"] = [];
  for (const reader of readers) {
    for (const c of cases().filter((c) => !args.match || c.label.includes(args.match))) {
      const times = c.target ? runs : 1;
      const timing = { first: await median(() => page(reader, c, 0), times), offset: await median(() => page(reader, c, OFFSET), times) };
      pages.push({ c, reader: reader.name, timing });
      console.log(`bench: ${reader.name.padEnd(12)} ${c.label.padEnd(56)} ${ms(timing.first).padStart(8)} ${ms(timing.offset).padStart(8)} ms`);
    }
  }
  const counts: StoreFigures["counts"] = [];
  for (const reader of args.match && !"count=1".includes(args.match) ? [] : readers) {
    for (const [label, filter] of [
      ["state = published (50 %)", { field: "state", operator: "eq", value: "published" }],
      ["f_enum = half (50 %)", { field: "f_enum", operator: "eq", value: "half" }],
    ] as const) {
      let total = 0;
      const time = await median(async () => {
        total = Number((await platform.elements.list(reader.principal, { family: "FLT", filter, slice: "1", count: true })).requestParameters.total);
      });
      counts.push({ label, reader: reader.name, ms: time, total });
      console.log(`bench: ${reader.name.padEnd(12)} count=1 ${label.padEnd(48)} ${ms(time).padStart(8)} ms (${total})`);
    }
  }
  return { pages, counts };
}

// ---- the stores ------------------------------------------------------------------------------------------

async function runSqlite(tempDir: string): Promise<StoreFigures> {
  const dataDir = join(tempDir, "sqlite");
  const seconds = await seedFltSqlite(dataDir, count, undefined, args.keep !== undefined);
  const opened = openSqliteStore({ dataDir });
  try {
    return { name: "SQLite", seconds, ...(await measure(opened)) };
  } finally {
    await opened.close();
  }
}

function runPostgres(tempDir: string): Promise<StoreFigures> {
  return withFltPostgres({ tempDir, base: args.url, database: args.keep ? FLT_KEPT_DATABASE : `lineage_bench_filters_${process.pid}`, count, keep: args.keep !== undefined }, async (url, seconds) => {
    const opened = await openPostgresStore({ url });
    try {
      return { name: "PostgreSQL", seconds, ...(await measure(opened)) };
    } finally {
      await opened.close();
    }
  });
}

// ---- the section -----------------------------------------------------------------------------------------

const met = (t: Timing) => t.first <= TARGET_FIRST_MS && t.offset <= TARGET_OFFSET_MS;

function section(figures: StoreFigures[], started: Date, loads: number[]): string {
  const lines = [
    SECTION,
    "",
    `Run on ${started.toISOString().slice(0, 10)}: \`pnpm bench:filters\` (${thousands(count)} live elements of one structure; ` +
      `each figure the median of ${runs} runs after one warm-up, or one run after it when the warm-up took over a second; one request at a time, ` +
      "through the list use case at the node: the filter parsed and checked, rights, the store's page, ten documents rendered).",
    "",
    `${machineLine()} Load average (1 min) at the start and the end of the run: ${loads.map((l) => l.toFixed(1)).join(" and ")}.`,
    "",
    `Seeded by bulk SQL with the indexes dropped, then indexed: ${figures.map((f) => `${f.name} ${f.seconds.seed.toFixed(0)} s + ${f.seconds.indexes.toFixed(0)} s`).join(", ")}.`,
    "",
    `Targets: first page ≤ ${TARGET_FIRST_MS} ms and the page at offset ${thousands(OFFSET)} ≤ ${TARGET_OFFSET_MS} ms (empty when fewer match); ` +
      `count=1 of a condition keeping 50 % ≤ ${TARGET_COUNT_MS} ms. "Reader of one in ten" may view one element in ten (a profile of their own): ` +
      "their rights are checked on the index path too. Rows marked \"limit\" are the documented costs of docs/limits.md, not held to targets.",
    "",
    `| Filter, order | Reader | ${figures.map((f) => `${f.name} first ms | offset ms`).join(" | ")} | Status |`,
    `|---|---|${figures.map(() => "---|---|").join("")}---|`,
  ];
  const rows = figures[0]!.pages;
  for (const [i, { c, reader }] of rows.entries()) {
    const timings = figures.map((f) => f.pages[i]!.timing);
    lines.push(`| ${c.label} | ${reader} | ${timings.map((t) => `${ms(t.first)} | ${ms(t.offset)}`).join(" | ")} | ${c.target ? mark(timings.every(met)) : "limit"} |`);
  }
  lines.push("", `| count=1 | Reader | ${figures.map((f) => `${f.name} ms`).join(" | ")} | Status |`, `|---|---|${figures.map(() => "---|").join("")}---|`);
  for (const [i, counted] of figures[0]!.counts.entries()) {
    const times = figures.map((f) => f.counts[i]!.ms);
    lines.push(`| ${counted.label} (${thousands(counted.total)}) | ${counted.reader} | ${times.map(ms).join(" | ")} | ${mark(times.every((t) => t <= TARGET_COUNT_MS))} |`);
  }
  const held = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.c.target);
  const missed = held.filter(({ i }) => figures.some((f) => !met(f.pages[i]!.timing)));
  lines.push("", `Targets: ${held.length - missed.length} of ${held.length} filtered pages met on ${figures.map((f) => f.name).join(" and ")}.`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const started = new Date();
  const loads = [loadavg()[0]!];
  const tempDir = args.keep ? join(args.keep, `count-${count}`) : mkdtempSync(join(tmpdir(), "lineage-bench-filters-"));
  mkdirSync(tempDir, { recursive: true });
  try {
    const figures: StoreFigures[] = [];
    if (args.store !== "postgres") figures.push(await runSqlite(tempDir));
    if (args.store !== "sqlite") figures.push(await runPostgres(tempDir));
    loads.push(loadavg()[0]!);
    publishSection(section(figures, started, loads), { heading: SECTION, write: !args["no-docs"] });
  } finally {
    if (!args.keep) rmSync(tempDir, { recursive: true, force: true });
  }
}

await main();
