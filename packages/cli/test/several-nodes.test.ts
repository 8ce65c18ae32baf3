import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDocumentedAnswer } from "@lineage/integration-tests";
import { spawnPostgres, type PostgresProcess } from "./postgres-process.ts";
import { basic, DEMO, spawnServe, type ServeProcess } from "./serve-process.ts";
import { runLineage } from "./lineage-command.ts";

/*
 * Two `lineage serve --database URL` processes on one PostgreSQL started by `lineage postgres`:
 * what one node acknowledges, the other shows at once; what must happen once happens once across
 * both; a node killed mid-write loses nothing acknowledged; PostgreSQL stopped and started again
 * is waited out with 503 envelopes.
 */

const root = mkdtempSync(join(tmpdir(), "lineage-nodes-"));
// Run as root, PostgreSQL runs as the postgres user, who must reach its directory.
chmodSync(root, 0o755);
let postgres: PostgresProcess;
let a: ServeProcess;
let b: ServeProcess;
const admin = { authorization: basic("admin", "admin") };

async function lineage(...args: string[]): Promise<string> {
  const run = await runLineage(args);
  if (run.status !== 0) throw new Error(`lineage ${args[0]} failed: ${run.stderr}`);
  return run.stdout;
}

async function call(node: ServeProcess, method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; body?: RequestInit["body"] } = {}) {
  const headers: Record<string, string> = { ...admin, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${node.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  // Every answer as the OpenAPI document describes it, the 503s of a database down included.
  expectDocumentedAnswer({ method, url: path, status: response.status, contentType: response.headers.get("content-type"), body: text });
  return { status: response.status, headers: response.headers, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const put = (node: ServeProcess, name: string, attributes: Record<string, unknown>) =>
  call(node, "PUT", `/api/v2/smart-elements/${name}`, { json: { document: { attributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { value: v }])) } } });
const attribute = async (node: ServeProcess, name: string, field: string) =>
  (await call(node, "GET", `/api/v2/smart-elements/${name}`)).json?.data.document.attributes[field]?.value;

beforeAll(async () => {
  // Port 0: the server takes a free one, and starts on it again after it is stopped.
  postgres = await spawnPostgres(join(root, "postgres"), 0);
  await lineage("import", "--database", postgres.url, "--data", join(root, "import"), DEMO);
  [a, b] = await Promise.all([
    // As docs/deployment.md starts them: each with the Images directory (the bundle's images/), which no bundle names here.
    spawnServe(["--database", postgres.url, "--data", join(root, "a"), "--images", join(dirname(DEMO), "images")]),
    spawnServe(["--database", postgres.url, "--data", join(root, "b"), "--images", join(dirname(DEMO), "images")]),
  ]);
}, 120_000);

afterAll(async () => {
  for (const node of [a, b]) node?.child.kill("SIGKILL");
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("two nodes on one PostgreSQL", () => {
  it("serves the structure icons on every node, from its --images directory", async () => {
    for (const node of [a, b]) {
      const icon = (await call(node, "GET", "/api/v2/smart-elements/ART_HELLO")).json?.data.document.properties.icon as string;
      const answer = await fetch(`${node.url}${icon}`, { headers: admin });
      expect([icon, answer.status, answer.headers.get("content-type")]).toEqual(["/api/v2/images/assets/sizes/24x24c/article.png", 200, "image/png"]);
    }
  });

  it("shows a write acknowledged by one node in the very next request to the other", async () => {
    for (let i = 0; i < 5; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      expect((await put(writer, "AUTHOR_JANE", { au_email: `jane${i}@example.org` })).status).toBe(200);
      expect(await attribute(reader, "AUTHOR_JANE", "au_email")).toBe(`jane${i}@example.org`);
    }
  });

  it("keeps a session opened on one node valid on the other", async () => {
    // The form comes from one node, the login goes to the other, the session is used on both.
    const form = await fetch(`${a.url}/login`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
    const login = await fetch(`${b.url}/login`, {
      method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(form) },
      body: new URLSearchParams({ login: "alice", password: "alice", csrf }).toString(),
    });
    expect(login.status).toBe(303);
    const cookie = cookiesOf(login);
    for (const node of [a, b]) expect((await fetch(`${node.url}/api/v2/smart-elements/ART_HELLO.json`, { headers: { cookie } })).status).toBe(200);
  });

  it("accepts a oneshot token once across both nodes", async () => {
    const token = (await lineage("token", "create", "--database", postgres.url, "--data", join(root, "cli"), "--user", "admin", "--route", "GET /api/v2/*", "--oneshot"))
      .trim().split("\n").at(-1)!;
    const statuses = await Promise.all([a, b, a, b].map(async (node) =>
      (await call(node, "GET", "/api/v2/smart-elements/ART_HELLO.json", { headers: { authorization: `Token ${token}` } })).status));
    expect(statuses.sort()).toEqual([200, 401, 401, 401]);
  });

  it("gives one winner to the same transition asked of both nodes at once", async () => {
    const path = "/api/v2/smart-elements/ART_CLIMATE_2024/workflows/transitions/";
    const state = (await call(a, "GET", "/api/v2/smart-elements/ART_CLIMATE_2024.json")).json.data.document.properties.state.reference;
    const transition = { draft: "submit", review: "publish", published: "unpublish" }[state as string]!;
    const answers = await Promise.all([a, b].map((node) => call(node, "POST", `${path}${transition}`, { json: {} })));
    // One winner. The loser either met the winner's write in its own transaction (409 WFL0409), or
    // came once it was committed and found the element in a state the transition does not leave
    // (CRUD0235): which one depends on the timing of the two nodes, never two winners.
    const winners = answers.filter((r) => r.status === 200);
    const loser = answers.find((r) => r.status !== 200);
    expect(winners).toHaveLength(1);
    expect([[409, "WFL0409"], [404, "CRUD0235"]]).toContainEqual([loser?.status, loser?.json.messages[0].code]);
    const target = { submit: "review", publish: "published", unpublish: "draft" }[transition]!;
    expect((await call(b, "GET", "/api/v2/smart-elements/ART_CLIMATE_2024.json")).json.data.document.properties.state.reference).toBe(target);
    // One change of state recorded, not two.
    const history = (await call(b, "GET", "/api/v2/smart-elements/ART_CLIMATE_2024/history/")).json.data.history;
    const changes = history.flatMap((revision: { messages: { code: string; comment: string }[] }) => revision.messages)
      .filter((m: { code: string; comment: string }) => m.code === "STATE" && m.comment.startsWith("Transition"));
    expect(changes).toHaveLength(1);
  });

  it("counts the wrong passwords of a login on both nodes together", async () => {
    const wrong = { authorization: basic("bob", "not-his-password") };
    // Five on each node: neither alone goes past the five free failures, together they lock the login.
    const statuses: number[] = [];
    for (const node of [a, b, a, b, a, b, a, b, a, b]) statuses.push((await call(node, "GET", "/api/v2/smart-elements/", { headers: wrong })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    // Each node's copy of the counts is read again every second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const locked = await call(a, "GET", "/api/v2/smart-elements/", { headers: { authorization: basic("bob", "bob") } });
    expect([locked.status, locked.json?.messages?.[0]?.code]).toEqual([429, "AUTH0429"]);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(b, "GET", "/api/v2/smart-elements/", { headers: { authorization: basic("alice", "alice") } })).status).toBe(200);
  });

  it("serves a file uploaded through one node from the other", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c636000010000050001" + "0d0a2db40000000049454e44ae426082", "hex");
    const form = new FormData();
    form.set("au_photo", new File([png], "dot.png", { type: "image/png" }));
    const uploaded = await call(a, "PUT", "/api/v2/smart-elements/AUTHOR_LENA", { body: form });
    expect(uploaded.status).toBe(200);
    const vaultId = /\|(\d+)\|/.exec(String(uploaded.json.data.document.attributes.au_photo.value))?.[1];
    const original = await fetch(`${b.url}/api/v2/images/recorded/original/${vaultId}.png`, { headers: admin });
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer())).toEqual(png);
  });
});

describe("faults", () => {
  it("loses no acknowledged write when a node is killed mid-stream, and the other keeps serving", async () => {
    let acknowledgedOnA = 0;
    const streamA = (async () => {
      for (let i = 1; ; i++) {
        try {
          const answer = await put(a, "AUTHOR_SAKURA", { au_email: `s${i}@example.org` });
          if (answer.status === 200) acknowledgedOnA = i;
        } catch {
          return;
        }
      }
    })();
    const streamB: number[] = [];
    for (let i = 1; i <= 30; i++) {
      if (i === 10) a.child.kill("SIGKILL");
      streamB.push((await put(b, "AUTHOR_PIERRE", { au_email: `p${i}@example.org` })).status);
    }
    await streamA;
    await a.exited;
    expect(streamB.every((status) => status === 200)).toBe(true);
    expect(acknowledgedOnA).toBeGreaterThan(0);
    const stored = String(await attribute(b, "AUTHOR_SAKURA", "au_email"));
    // The last write acknowledged, or the one in flight when the node died (committed, never answered).
    expect([`s${acknowledgedOnA}@example.org`, `s${acknowledgedOnA + 1}@example.org`]).toContain(stored);
    expect(await attribute(b, "AUTHOR_PIERRE", "au_email")).toBe("p30@example.org");
  });

  it("answers 503 envelopes while PostgreSQL is down, and recovers by itself once it is back", async () => {
    await postgres.stop();
    const down = await call(b, "GET", "/api/v2/smart-elements/ART_HELLO.json");
    expect(down.status).toBe(503);
    expect(down.json.messages[0]).toMatchObject({ type: "error", code: "API0110" });
    const write = await put(b, "AUTHOR_JANE", { au_email: "offline@example.org" });
    expect([write.status, write.json?.messages[0].code]).toEqual([503, "API0110"]);
    postgres = await spawnPostgres(join(root, "postgres"), Number(new URL(postgres.url).port));
    let status = 0;
    for (const started = Date.now(); Date.now() - started < 20_000 && status !== 200; await new Promise((r) => setTimeout(r, 200))) {
      status = (await call(b, "GET", "/api/v2/smart-elements/ART_HELLO.json")).status;
    }
    expect(status).toBe(200);
    expect((await put(b, "AUTHOR_JANE", { au_email: "back@example.org" })).status).toBe(200);
    expect(b.child.exitCode).toBe(null);
    expect(b.stderr.join("\n")).not.toMatch(/at .+\.ts:\d+/);
  });
});
