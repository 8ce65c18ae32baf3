import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { positive } from "./bench-options.ts";
import { ROOT, openBenchSession, statusMb } from "./bench-session.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { basicAuth, percentile } from "./load.ts";

/*
 * The soak (issue 10), run by `pnpm bench:soak`: the real `lineage serve` (packages/cli/bin/lineage.mjs,
 * request logs on, to /dev/null) on the demo bundle, on 127.0.0.1, and many clients for minutes mixing
 * reads (one element, lists, enumerates), PUTs, lifecycle transitions and full-text searches.
 * Every answer must be 200; the server's RSS is sampled all along and must stay flat.
 * Writes the section "## Soak (issue 10)" of docs/benchmarks.md.
 *
 * Options: --duration S (180), --clients N (32), --sample S (5), --budget S, --no-docs.
 */

const SECTION = "## Soak (issue 10)";
/** Flat memory: the RSS of the last third of the run within this share of the second third's. */
const TARGETS = { errors: 0, rssGrowth: 0.1 };

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "180" }, clients: { type: "string", default: "32" }, sample: { type: "string", default: "5" },
    budget: { type: "string" }, "no-docs": { type: "boolean", default: false },
  },
});
const duration = positive("duration", args.duration, 3600);
const clients = positive("clients", args.clients, 256);
const sampleEvery = positive("sample", args.sample, 60);
const budget = args.budget ? positive("budget", args.budget, 7200) : duration + 120;
const session = openBenchSession({ tempPrefix: "lineage-soak-", budget, profileDir: undefined });

const ADMIN = { authorization: basicAuth("admin", "admin"), "content-type": "application/json" };
const ALICE = { authorization: basicAuth("alice", "alice"), "content-type": "application/json" };
const READ = ["ART_HELLO", "ART_AI_NEWSROOMS", "ART_SPIRAL_GALAXIES", "AUTHOR_JANE", "AUTHOR_PIERRE", "CONTACT_FESTIVAL", "ART_FILM_FESTIVAL"];
const WRITTEN = ["ART_HELLO", "ART_AI_NEWSROOMS", "ART_SPIRAL_GALAXIES"];
/** Each cycled article belongs to one client: two clients racing on one lifecycle would refuse each other. */
const CYCLED = ["ART_IA_REDACTIONS", "ART_CLIMATE_2024", "ART_FILM_FESTIVAL", "ART_GALAXIES_SPIRALES"];
const SEARCHES = ["galaxies", "climate", "newsroom", "festival film", "\"spiral galaxies\""];

type Kind = "GET one" | "GET list" | "enumerate" | "PUT" | "transition" | "search";

interface Figures {
  readonly count: Map<Kind, number>;
  readonly latencies: Map<Kind, number[]>;
  readonly errors: string[];
}

/** Starts `lineage serve` with its request log on, discarded; resolves with the child and URL. */
function startServe(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = session.adopt(spawn(process.execPath, [join(ROOT, "packages/cli/bin/lineage.mjs"), "serve", "--data", dataDir, "--bundle", join(ROOT, "examples/demo/bundle.json"), "--port", "0"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
  }));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let url: string | undefined;
    lines.on("line", (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] && !url) resolve({ child, url: (url = match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`lineage serve exited (${code}) before listening`)));
  });
}

async function call(figures: Figures, kind: Kind, url: string, init: RequestInit): Promise<any> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    figures.latencies.get(kind)!.push(performance.now() - started);
    figures.count.set(kind, (figures.count.get(kind) ?? 0) + 1);
    if (response.status !== 200) {
      figures.errors.push(`${kind} ${init.method ?? "GET"} ${url}: ${response.status} ${text.slice(0, 200)}`);
      return undefined;
    }
    return JSON.parse(text);
  } catch (error) {
    figures.errors.push(`${kind} ${url}: ${(error as Error).message}`);
    return undefined;
  }
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;

/** One client: a weighted mix of requests until `until`; client i < CYCLED.length also cycles its article's lifecycle. */
async function client(index: number, base: string, until: number, figures: Figures, searchable: boolean): Promise<void> {
  const own = CYCLED[index];
  let state: string | undefined;
  if (own) {
    const start = await call(figures, "GET one", `${base}/api/v2/smart-elements/${own}?fields=document.properties.state`, { headers: ADMIN });
    state = start?.data.document.properties.state.reference;
    if (state === "published") {
      await call(figures, "transition", `${base}/api/v2/smart-elements/${own}/workflows/transitions/unpublish`, { method: "POST", headers: ALICE, body: "{}" });
      state = "draft";
    }
  }
  for (let n = 0; Date.now() < until; n++) {
    const roll = Math.random();
    if (own && roll < 0.1) {
      const transition = state === "draft" ? "submit" : "reject";
      const answer = await call(figures, "transition", `${base}/api/v2/smart-elements/${own}/workflows/transitions/${transition}`, {
        method: "POST", headers: ALICE, body: JSON.stringify({ comment: `soak ${index}.${n}` }),
      });
      if (answer) state = answer.data.state.id;
    } else if (roll < 0.25) {
      const name = pick(WRITTEN);
      await call(figures, "PUT", `${base}/api/v2/smart-elements/${name}`, {
        method: "PUT", headers: ADMIN, body: JSON.stringify({ document: { attributes: { ar_title: { value: `${name} soak ${index}.${n}` } } } }),
      });
    } else if (searchable && roll < 0.33) {
      await call(figures, "search", `${base}/api/v2/fullsearch/domains/articles/smart-elements/?q=${encodeURIComponent(pick(SEARCHES))}`, { headers: ADMIN });
    } else if (roll < 0.45) {
      await call(figures, "GET list", `${base}/api/v2/smart-elements/?slice=10&offset=${Math.floor(Math.random() * 10)}&orderBy=${pick(["title:asc", "id:desc", "mdate:desc"])}`, { headers: ADMIN });
    } else if (roll < 0.5) {
      await call(figures, "enumerate", `${base}/api/v2/smart-structures/ARTICLE/enumerates/ar_lang?keyword=${pick(["e", "fr", "", "an"])}`, { headers: ADMIN });
    } else {
      await call(figures, "GET one", `${base}/api/v2/smart-elements/${pick(READ)}`, { headers: ADMIN });
    }
  }
}

async function main(): Promise<void> {
  console.log(`bench: soak: starting lineage serve in ${session.tempDir}`);
  const { child, url } = await startServe(join(session.tempDir, "data"));
  const pid = child.pid!;
  const probe = await fetch(`${url}/api/v2/fullsearch/domains/articles/smart-elements/?q=galaxies`, { headers: ADMIN });
  const searchable = probe.status === 200;
  console.log(`bench: soak: ${clients} clients for ${duration} s on ${url}${searchable ? "" : " (no full-text search route: searches left out)"}`);

  const kinds: Kind[] = ["GET one", "GET list", "enumerate", "PUT", "transition", "search"];
  const figures: Figures = { count: new Map(), latencies: new Map(kinds.map((kind) => [kind, []])), errors: [] };
  const rss: Array<{ at: number; mb: number }> = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    rss.push({ at: (Date.now() - started) / 1000, mb: statusMb(pid, "VmRSS") });
    const total = [...figures.count.values()].reduce((a, b) => a + b, 0);
    console.log(`bench: soak: ${Math.round((Date.now() - started) / 1000)} s, ${total} requests, ${figures.errors.length} errors, RSS ${rss.at(-1)?.mb.toFixed(0)} MB`);
  }, sampleEvery * 1000);
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i, url, started + duration * 1000, figures, searchable)));
  clearInterval(sampler);
  const elapsed = (Date.now() - started) / 1000;
  const peak = statusMb(pid, "VmHWM");
  child.kill("SIGTERM");
  const exitCode = await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const third = (part: number) => {
    const from = (elapsed / 3) * part;
    const values = rss.filter((s) => s.at >= from && s.at < from + elapsed / 3).map((s) => s.mb).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] ?? NaN;
  };
  const [early, middle, late] = [third(0), third(1), third(2)];
  const growth = (late - middle) / middle;
  const total = [...figures.count.values()].reduce((a, b) => a + b, 0);
  const rows = kinds.filter((kind) => figures.count.get(kind)).map((kind) => {
    const sorted = Float64Array.from(figures.latencies.get(kind)!).sort();
    return `| ${kind} | ${thousands(sorted.length)} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 99))} | ${ms(sorted[sorted.length - 1] ?? NaN)} |`;
  });
  const section = [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:soak${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(" ")}` : ""}\` ` +
      `(${clients} clients for ${duration} s against the real \`lineage serve\` on the demo bundle, request logs on, WAL with synchronous=FULL).`,
    "",
    `${machineLine()} The clients run in the benchmark's process on the same cores as the server.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| Errors (any answer but 200, or no answer) | ${figures.errors.length} of ${thousands(total)} | ${TARGETS.errors} | ${mark(figures.errors.length === TARGETS.errors)} |`,
    `| Server RSS, last third vs middle third (medians) | ${late.toFixed(0)} MB vs ${middle.toFixed(0)} MB (${(growth * 100).toFixed(1)} %) | < ${TARGETS.rssGrowth * 100} % growth | ${mark(growth < TARGETS.rssGrowth)} |`,
    `| Clean stop after the soak (SIGTERM) | exit ${exitCode} | 0 | ${mark(exitCode === 0)} |`,
    "",
    "| Request | count | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `- Throughput: ${thousands(total / elapsed)} requests/s over ${elapsed.toFixed(0)} s. Mix: GET one element ~${searchable ? 50 : 55} %, lists ~12 %, enumerates ~5 %, PUTs ~15 %, ` +
      `transitions ~10 % of the ${CYCLED.length} lifecycle clients' requests${searchable ? ", full-text searches ~8 %" : "; no full-text search route when run"}.`,
    `- RSS samples every ${sampleEvery} s: first third ${early.toFixed(0)} MB, middle ${middle.toFixed(0)} MB, last ${late.toFixed(0)} MB; peak (VmHWM) ${peak.toFixed(0)} MB. ` +
      `The first third holds the warm-up (caches, JIT), so flatness is judged on the last two.`,
    `- RSS over time (s: MB): ${rss.map((s) => `${s.at.toFixed(0)}: ${s.mb.toFixed(0)}`).join(", ")}.`,
    ...(figures.errors.length ? [`- First errors: ${figures.errors.slice(0, 5).map((e) => `\`${e.replace(/`/g, "'")}\``).join("; ")}`] : []),
    "- Latency percentiles are exact, from every answer.",
  ].join("\n");
  publishSection(section, { heading: SECTION, write: !args["no-docs"] });
  if (figures.errors.length > 0 || growth >= TARGETS.rssGrowth || exitCode !== 0) process.exitCode = 1;
}

await session.run(main);
