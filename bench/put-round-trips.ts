import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import pg from "pg";
import { openLineage, startLineage } from "@lineage/cli";
import { startPostgresServer } from "@lineage/postgres-server";
import { BENCH_LOGIN, BENCH_PASSWORD, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { basicAuth } from "./load.ts";

/*
 * `pnpm bench:put-round-trips`: the statements a PUT (and a transition) sends to PostgreSQL, counted
 * on node-postgres's client (every query, the write's own and what the node runs around it: the
 * change clock, event watchers, the webhook worker). One `lineage serve --database` in process,
 * requests one after the other so that each statement belongs to one request; prints the count per
 * request and the statements of the last one. With --profile FILE, the process's CPU profile over
 * the counted requests (server and client: one process) goes to FILE (.cpuprofile, for Chrome's
 * DevTools), and its heaviest functions by self time are printed.
 * Options: --count N (300 elements), --requests N (50), --profile FILE.
 */

const { values: args } = parseArgs({ options: { count: { type: "string", default: "300" }, requests: { type: "string", default: "50" }, profile: { type: "string" } } });
const count = Number(args.count);
const requests = Number(args.requests);
const headers = { authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD), "content-type": "application/json", accept: "application/json" };

let log: string[] = [];
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...a: unknown[]) {
  const first = a[0] as string | { text: string };
  log.push((typeof first === "string" ? first : first.text).replace(/\s+/g, " ").slice(0, 160));
  return query.apply(this, a);
} as typeof pg.Client.prototype.query;

const dir = mkdtempSync(join(tmpdir(), "lineage-put-round-trips-"));
chmodSync(dir, 0o755);
const postgres = await startPostgresServer({ dir: join(dir, "cluster"), port: 0 });
try {
  const random = createRandom(0x5eed);
  const head = bundleHead();
  const bundle = join(dir, "bundle.json");
  writeFileSync(bundle, JSON.stringify({
    ...head,
    lifecycles: [{ name: "WFL_BENCH", firstState: "draft", states: [{ id: "draft", label: "Draft" }], transitions: [{ id: "touch", from: "draft", to: "draft", label: "Touch" }] }],
    structures: head.structures.map((s) => ({ ...s, lifecycle: "WFL_BENCH" })),
    elements: Array.from({ length: count }, (_, i) => benchElement(i + 1, random)),
  }));
  const { store } = await openLineage({ dataDir: join(dir, "import"), databaseUrl: postgres.url }, [bundle]);
  await store.close();
  const running = await startLineage({ dataDir: join(dir, "node"), port: 0, host: "127.0.0.1", databaseUrl: postgres.url });
  try {
    const kinds = {
      PUT: (i: number) => fetch(`${running.url}/api/v2/smart-elements/${elementName(1 + (i % count))}`, {
        method: "PUT", headers, body: JSON.stringify({ document: { attributes: { ba_words: { value: i } } } }),
      }),
      transition: (i: number) => fetch(`${running.url}/api/v2/smart-elements/${elementName(1 + (i % count))}/workflows/transitions/touch`, {
        method: "POST", headers, body: "{}",
      }),
    };
    for (const [kind, send] of Object.entries(kinds)) {
      for (let i = 0; i < 5; i++) await (await send(i)).arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 300));
      let total = 0;
      let last: string[] = [];
      const inspector = args.profile ? new Session() : undefined;
      if (inspector) {
        inspector.connect();
        await inspector.post("Profiler.enable");
        await inspector.post("Profiler.start");
      }
      for (let i = 0; i < requests; i++) {
        log = [];
        const answer = await send(i + 7);
        if (!answer.ok) throw new Error(`${kind}: ${answer.status} ${await answer.text()}`);
        await answer.arrayBuffer();
        // What the commit sets off around the request (watchers, the worker) before the next one.
        await new Promise((resolve) => setTimeout(resolve, 20));
        total += log.length;
        last = log;
      }
      console.log(`${kind}: ${(total / requests).toFixed(1)} statements per request (the request and what its commit sets off)`);
      if (inspector) {
        const { profile } = await inspector.post("Profiler.stop");
        inspector.disconnect();
        writeFileSync(`${args.profile}.${kind}.cpuprofile`, JSON.stringify(profile));
        printHeaviest(profile);
      }
      for (const line of last) console.log(`  ${line}`);
    }
  } finally {
    await running.close();
  }
} finally {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The functions of most self time in a profile, by name and file, with their share. */
function printHeaviest(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[] }): void {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const frame = byNode.get(id)!.callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(packages|node_modules)\//, "$1/")}:${frame.lineNumber + 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profile.samples?.length ?? 1;
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}`);
}
