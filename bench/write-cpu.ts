import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { request as httpRequest, Agent } from "node:http";
import { cpuMs, openBenchSession } from "./bench-session.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { basicAuth, probe } from "./load.ts";
import { freePort, stopChild, untilAnswering } from "./served-child.ts";

/*
 * `pnpm bench:write-cpu`: the server's CPU time per write, which a shared machine's load disturbs far
 * less than a rate. For each tree (`--trees before=../baseline,after=.`, each built), its own
 * `lineage import` of --count elements under a lifecycle, then its `lineage serve` on SQLite
 * (synchronous FULL, as users run it): --requests PUTs of one field of a random element, then as many
 * transitions (draft to draft, a new revision), from --connections clients at once after a warm-up of
 * a fifth as many; the server's user and system CPU (/proc/<pid>/stat) over the measured requests,
 * divided by their number. --rounds rounds, the trees in alternating order; prints the median per
 * tree and write. With --profile DIR, each server writes a --cpu-prof file there (read it with
 * bench/cpu-profile-summary.ts). Prints only; nothing goes to docs/.
 * Options: --trees, --count N (3000), --requests N (3000), --connections N (16), --rounds N (3),
 * --writes put|all (all), --synchronous full|normal (full), --profile DIR.
 */

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    count: { type: "string", default: "3000" },
    requests: { type: "string", default: "3000" },
    connections: { type: "string", default: "16" },
    rounds: { type: "string", default: "3" },
    writes: { type: "string", default: "all" },
    synchronous: { type: "string", default: "full" },
    profile: { type: "string" },
  },
});
const trees = args.trees.split(",").map((pair) => {
  const [label, dir] = pair.split("=");
  if (!label || !dir) throw new Error(`--trees: "${pair}" is not label=dir`);
  return { label, dir: resolve(dir) };
});
const count = Number(args.count);
const requests = Number(args.requests);
const connections = Number(args.connections);
const rounds = Number(args.rounds);
const profileDir = args.profile ? resolve(args.profile) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const session = openBenchSession({ tempPrefix: "lineage-bench-write-cpu-", budget: 3600, profileDir });
const authorization = basicAuth(BENCH_LOGIN, BENCH_PASSWORD);
type Write = "PUT" | "Transition";
if (args.writes !== "all" && args.writes !== "put") throw new Error(`--writes: "${args.writes}" is not all or put`);
const WRITES: readonly Write[] = args.writes === "put" ? ["PUT"] : ["PUT", "Transition"];

const { NODE_OPTIONS: _sourceCondition, ...builtEnv } = process.env;

async function serve(tree: string, data: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = session.adopt(spawn(process.execPath, [...profile, join(tree, "packages/cli/bin/lineage.mjs"), "serve", "--data", data, "--synchronous", args.synchronous, "--port", String(port)], {
    stdio: ["ignore", "ignore", "inherit"], env: builtEnv,
  }));
  await untilAnswering(child, `http://127.0.0.1:${port}/api/v2/smart-elements/${elementName(1)}`, { authorization }, 60_000);
  return { child, port };
}

/** One write to a random element; resolves to the status. */
function send(agent: Agent, port: number, write: Write): Promise<number> {
  const name = elementName(1 + Math.floor(Math.random() * count));
  const [path, body] = write === "PUT"
    ? [`/api/v2/smart-elements/${name}`, JSON.stringify({ document: { attributes: { ba_words: { value: Math.floor(Math.random() * 1000) } } } })]
    : [`/api/v2/smart-elements/${name}/workflows/transitions/touch`, "{}"];
  return new Promise((done, fail) => {
    const req = httpRequest({ agent, host: "127.0.0.1", port, method: write === "PUT" ? "PUT" : "POST", path, headers: {
      authorization, accept: "application/json", "content-type": "application/json", "content-length": Buffer.byteLength(body),
    } }, (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode ?? 0));
    });
    req.on("error", fail);
    req.end(body);
  });
}

/** `total` writes from `connections` clients at once; the count of answers that were not 2xx. */
async function drive(agent: Agent, port: number, write: Write, total: number): Promise<number> {
  let next = 0;
  let refused = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < total) {
      next++;
      const status = await send(agent, port, write);
      if (status < 200 || status > 299) refused++;
    }
  }));
  return refused;
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

async function main(): Promise<void> {
  const bundle = join(session.tempDir, "bundle.json");
  const random = createRandom(0x5eed);
  const head = bundleHead();
  writeFileSync(bundle, JSON.stringify({
    ...head,
    lifecycles: [{ name: "WFL_BENCH", firstState: "draft", states: [{ id: "draft", label: "Draft" }], transitions: [{ id: "touch", from: "draft", to: "draft", label: "Touch" }] }],
    structures: head.structures.map((s) => ({ ...s, lifecycle: "WFL_BENCH" })),
    elements: Array.from({ length: count }, (_, i) => benchElement(i + 1, random)),
  }));
  for (const tree of trees) {
    const data = join(session.tempDir, tree.label);
    const imported = spawnSync(process.execPath, [join(tree.dir, "packages/cli/bin/lineage.mjs"), "import", "--data", data, bundle], { stdio: ["ignore", "ignore", "inherit"], env: builtEnv });
    if (imported.status !== 0) throw new Error(`${tree.label}: lineage import exited with ${imported.status}`);
  }
  const figures = new Map<string, number[]>();
  console.log(`bench: load ${loadAverage()} at the start`);
  for (let round = 0; round < rounds; round++) {
    for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
      const server = await serve(tree.dir, join(session.tempDir, tree.label));
      const agent = new Agent({ keepAlive: true, maxSockets: connections });
      try {
        for (const write of WRITES) {
          await drive(agent, server.port, write, Math.ceil(requests / 5));
          const before = cpuMs(server.child.pid!);
          const started = performance.now();
          const refused = await drive(agent, server.port, write, requests);
          const seconds = (performance.now() - started) / 1000;
          const perRequest = (cpuMs(server.child.pid!) - before) / requests;
          const key = `${tree.label} ${write}`;
          figures.set(key, [...(figures.get(key) ?? []), perRequest]);
          console.log(`bench: round ${round + 1}, ${key}: ${perRequest.toFixed(3)} ms CPU per request, ${(requests / seconds).toFixed(0)} req/s, ${refused} not 2xx, load ${loadAverage()}`);
        }
      } finally {
        agent.destroy();
        await stopChild(server.child);
      }
    }
  }
  for (const [key, values] of figures) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`bench: ${key}: median ${sorted[Math.floor((sorted.length - 1) / 2)]!.toFixed(3)} ms CPU per request (${sorted.map((v) => v.toFixed(3)).join(", ")})`);
  }
  console.log(`bench: load ${loadAverage()} at the end`);
}

await session.run(main);
