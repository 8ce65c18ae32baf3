import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openLineage } from "@lineage/cli";
import { positive } from "./bench-options.ts";
import { BENCH_LOGIN, BENCH_PASSWORD } from "./generate-bundle.ts";
import { basicAuth } from "./load.ts";
import { MILLION_DOMAIN } from "./million-bundle.ts";

/*
 * The CPU time one request of the search route takes, against the list page of ten, in process
 * (Hono's app.request: routing, authentication, the route and its JSON, no socket), on the data
 * directory that `pnpm bench:search-throughput --data DIR` imported: a figure that a busy machine
 * disturbs less than a throughput, for profiling steps. It runs the built packages (dist/, whose
 * profiles name lines), or their sources with `NODE_OPTIONS=--conditions=@lineage/source`:
 * `node --cpu-prof --import tsx bench/search-route-cpu.ts --data DIR --only search`.
 * Prints CPU ms per request (user + system, process.cpuUsage) of each, the median of --rounds rounds
 * of --requests requests, one at a time. Writes nothing to docs/.
 */

const { values: args } = parseArgs({
  options: {
    data: { type: "string" }, requests: { type: "string", default: "2000" }, rounds: { type: "string", default: "5" },
    q: { type: "string", default: "lighthouse" }, only: { type: "string", default: "all" },
  },
});
if (!args.data) throw new Error("usage: search-route-cpu.ts --data DIR [--requests N] [--rounds N] [--q WORD] [--only search|list|all]");
const requests = positive("requests", args.requests, 1_000_000);
const rounds = positive("rounds", args.rounds, 100);
const headers = { accept: "application/json", authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };
// Not a dependency of the workspace's root: found from the CLI's, under the same conditions (dist/ or sources).
const http = createRequire(new URL("../packages/cli/package.json", import.meta.url)).resolve("@lineage/adapter-http");
const { createHttpApp } = (await import(pathToFileURL(http).href)) as typeof import("../packages/adapter-http/src/index.ts");
const { platform, store } = await openLineage({ dataDir: args.data });
await platform.fullsearch.engine.start();
const app = createHttpApp({ platform });

const paths = {
  list: "/api/v2/smart-elements/?slice=10",
  search: `/api/v2/fullsearch/domains/${MILLION_DOMAIN}/smart-elements/?slice=10&q=${encodeURIComponent(args.q)}`,
};

async function cpuPerRequest(path: string): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const answer = await app.request(path, { headers });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
    await answer.arrayBuffer();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / requests;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const names = args.only === "all" ? (["list", "search"] as const) : ([args.only] as ("list" | "search")[]);
const figures = new Map<string, number[]>(names.map((name) => [name, []]));
for (const name of names) await cpuPerRequest(paths[name]);
for (let round = 0; round < rounds; round++) {
  for (const name of names) figures.get(name)!.push(await cpuPerRequest(paths[name]));
}
for (const name of names) console.log(`${name}: ${median(figures.get(name)!).toFixed(3)} CPU ms per request (rounds: ${figures.get(name)!.map((x) => x.toFixed(3)).join(", ")})`);
if (names.length === 2) console.log(`search / list: ${(median(figures.get("search")!) / median(figures.get("list")!)).toFixed(2)}`);
await platform.fullsearch.engine.stop();
await store.close();
