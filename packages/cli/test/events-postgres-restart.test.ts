import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runLineage } from "./lineage-command.ts";
import { spawnPostgres, type PostgresProcess } from "./postgres-process.ts";
import { basic, DEMO, spawnServe, type ServeProcess } from "./serve-process.ts";

/*
 * PostgreSQL restarted in the middle of a burst of writes through a real `lineage serve`: every
 * write acknowledged has its event, the log's seqs only grow and each element's events come in the
 * order of its writes; while the database is away the clients get 503 API0110 envelopes, a live
 * stream stays open and, once the database is back, delivers every event once; the node serves
 * again by itself.
 */

const root = mkdtempSync(join(tmpdir(), "lineage-events-pg-restart-"));
// PostgreSQL runs as the postgres user, who must reach its directory.
chmodSync(root, 0o755);
const admin = { authorization: basic("admin", "admin") };
const ELEMENTS = ["AUTHOR_JANE", "AUTHOR_PIERRE", "AUTHOR_SAKURA", "AUTHOR_LENA"];

let postgres: PostgresProcess;
let node: ServeProcess;

beforeAll(async () => {
  postgres = await spawnPostgres(join(root, "postgres"), 0);
  const imported = await runLineage(["import", "--database", postgres.url, "--data", join(root, "import"), DEMO]);
  if (imported.status !== 0) throw new Error(imported.stderr);
  node = await spawnServe(["--database", postgres.url, "--data", join(root, "node")]);
}, 120_000);

afterAll(async () => {
  node?.child.kill("SIGKILL");
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly json: { messages?: { type: string; code: string; contentText: string }[] } | undefined;
  readonly text: string;
}

async function call(method: string, path: string, json?: unknown): Promise<Answer> {
  const response = await fetch(`${node.url}${path}`, {
    method, headers: { ...admin, ...(json === undefined ? {} : { "content-type": "application/json" }) }, ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : undefined, text };
}

const putEmail = (name: string, email: string) =>
  call("PUT", `/api/v2/smart-elements/${name}`, { document: { attributes: { au_email: { value: email } } } });

interface LogEvent {
  readonly seq: number;
  readonly type: string;
  readonly name: string;
  readonly changes?: Record<string, { before: unknown; after: unknown }>;
}

async function eventsAfter(after: number): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  for (let position = after; ;) {
    const answer = await call("GET", `/api/v2/events/?after=${position}&slice=1000`);
    const page = (answer.json as { data: { events: LogEvent[]; last: number } }).data;
    events.push(...page.events);
    if (page.events.length < 1000) return events;
    position = page.last;
  }
}

/** A live stream from `after`: the seq of every event it delivers, until `stop`. */
function openStream(after: number): { seqs: number[]; stop: () => void; ended: Promise<void> } {
  const seqs: number[] = [];
  const controller = new AbortController();
  const ended = (async () => {
    const response = await fetch(`${node.url}/api/v2/events/stream?after=${after}`, { headers: { ...admin, accept: "text/event-stream" }, signal: controller.signal });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body!) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const id = /^id: ?(\d+)$/m.exec(message)?.[1];
          if (id !== undefined) seqs.push(Number(id));
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return { seqs, stop: () => controller.abort(), ended };
}

it("loses no event and keeps each element's order when PostgreSQL restarts during a burst of writes", async () => {
  const start = (await eventsAfter(0)).at(-1)?.seq ?? 0;
  const stream = openStream(start);
  // Each element's writes one after the other, the elements' writers side by side; every answer kept.
  const acknowledged = new Map<string, string[]>(ELEMENTS.map((name) => [name, []]));
  const sent = new Map<string, string[]>(ELEMENTS.map((name) => [name, []]));
  const refusals: Answer[] = [];
  let writing = true;
  const writers = ELEMENTS.map(async (name) => {
    for (let i = 1; writing; i++) {
      const email = `${name.toLowerCase()}.${i}@example.org`;
      sent.get(name)!.push(email);
      const answer = await putEmail(name, email);
      if (answer.status === 200) acknowledged.get(name)!.push(email);
      else {
        refusals.push(answer);
        // The database away: a short pause, as a client retrying would.
        await new Promise((done) => setTimeout(done, 50));
      }
    }
  });
  const acknowledgedCount = () => [...acknowledged.values()].reduce((sum, emails) => sum + emails.length, 0);
  const until = async (what: string, test: () => boolean, timeoutMs = 30_000) => {
    for (const started = Date.now(); !test();) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  };

  await until("writes before the restart", () => acknowledgedCount() >= 40);
  const port = Number(new URL(postgres.url).port);
  await postgres.stop();
  const before = acknowledgedCount();
  await until("refusals while the database is down", () => refusals.length >= 8);
  const down = await call("GET", "/api/v2/smart-elements/AUTHOR_JANE.json");
  postgres = await spawnPostgres(join(root, "postgres"), port);
  await until("writes after the restart", () => acknowledgedCount() >= before + 40, 60_000);
  writing = false;
  await Promise.all(writers);

  // While it was away: the envelope with 503 and API0110, never a crash or a stack trace.
  expect(down.status).toBe(503);
  expect(down.json?.messages?.[0]).toMatchObject({ type: "error", code: "API0110" });
  for (const refusal of refusals) {
    expect(refusal.status).toBe(503);
    expect(refusal.json?.messages?.[0]?.code).toBe("API0110");
  }
  expect(node.child.exitCode).toBe(null);
  expect(node.stderr.join("\n")).not.toMatch(/at .+\.ts:\d+/);

  const events = (await eventsAfter(start)).filter((event) => event.type === "element.updated");
  const seqs = events.map((event) => event.seq);
  expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  expect(new Set(seqs).size).toBe(seqs.length);
  for (const name of ELEMENTS) {
    const logged = events.filter((event) => event.name === name).map((event) => String(event.changes?.au_email?.after));
    // Every acknowledged write is there, in the order written; a write cut by the restart may have
    // committed without its answer: it may appear, in its place, never twice.
    const acked = acknowledged.get(name)!;
    expect(logged.filter((email) => acked.includes(email))).toEqual(acked);
    const order = sent.get(name)!;
    expect(logged.map((email) => order.indexOf(email))).toEqual(logged.map((email) => order.indexOf(email)).sort((x, y) => x - y));
    expect(logged.every((email) => order.includes(email))).toBe(true);
    expect(new Set(logged).size).toBe(logged.length);
  }

  // The stream stayed open through the restart and delivered every event of the log once, in order.
  const all = (await eventsAfter(start)).map((event) => event.seq);
  await until("the stream's last event", () => stream.seqs.at(-1) === all.at(-1), 20_000);
  stream.stop();
  await stream.ended;
  expect(stream.seqs).toEqual(all);
}, 180_000);
