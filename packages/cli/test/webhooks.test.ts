import { createHmac, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLineage } from "./lineage-command.ts";
import { spawnPostgres, type PostgresProcess } from "./postgres-process.ts";
import { basic, DEMO, spawnServe, type ServeProcess } from "./serve-process.ts";

/*
 * Webhooks delivered by real `lineage serve` processes to a receiver listening on loopback: signed,
 * in order per element through a receiver outage, never for a write that rolled back, and, on two
 * nodes over PostgreSQL, finished by the other node when the sending one is killed mid-attempt.
 */

const root = mkdtempSync(join(tmpdir(), "lineage-webhooks-"));
chmodSync(root, 0o755);
const admin = { authorization: basic("admin", "admin") };
const config = join(root, "config.json");
writeFileSync(config, JSON.stringify({ webhooks: { allowPrivateNetworks: true } }));

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly event: { seq: number; type: string; name: string; initid: number };
}

/** A webhook receiver on loopback: it keeps what it receives; `answer` decides each reply (a status, or "hang": never answers). */
class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received) => number | "hang" = () => 204;
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk)).on("end", () => {
        const received = { headers: request.headers, body, event: JSON.parse(body) as Received["event"] };
        this.received.push(received);
        const status = this.answer(received);
        if (status !== "hang") response.writeHead(status).end();
      });
    });
    await new Promise<void>((done) => server.listen(this.port, "127.0.0.1", done));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }
}

/** The Standard Webhooks check a receiver makes: HMAC-SHA256 of `id.timestamp.body` with the secret's key, base64. */
function signatureValid(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${String(headers["webhook-id"])}.${String(headers["webhook-timestamp"])}.${body}`).digest();
  return String(headers["webhook-signature"]).split(" ").some((signature) => {
    const [version, value] = signature.split(",");
    const given = Buffer.from(value ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function call(node: ServeProcess, method: string, path: string, json?: unknown) {
  const response = await fetch(`${node.url}${path}`, {
    method, headers: { ...admin, ...(json === undefined ? {} : { "content-type": "application/json" }) }, ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : undefined, text };
}

const put = (node: ServeProcess, name: string, attributes: Record<string, unknown>) =>
  call(node, "PUT", `/api/v2/smart-elements/${name}`, { document: { attributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { value: v }])) } });

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The seq after which the next event will come, as an administrator reads the log. */
async function lastSeq(node: ServeProcess): Promise<number> {
  for (let after = 0; ;) {
    const page = (await call(node, "GET", `/api/v2/events/?after=${after}&slice=1000`)).json.data;
    if (page.events.length < 1000) return page.last as number;
    after = page.last;
  }
}

/** Every event of the log an administrator reads after `after`. */
async function eventsAfter(node: ServeProcess, after: number): Promise<{ seq: number; initid: number; type: string }[]> {
  return (await call(node, "GET", `/api/v2/events/?after=${after}&slice=1000`)).json.data.events;
}

describe("webhooks on one node (SQLite)", () => {
  const receiver = new Receiver();
  let node: ServeProcess;
  const data = join(root, "sqlite");

  beforeAll(async () => {
    await receiver.start();
    node = await spawnServe(["--data", data, "--seed", DEMO, "--config", config]);
  }, 90_000);
  afterAll(async () => {
    node?.child.kill("SIGKILL");
    await receiver.stop();
  });

  it("refuses a loopback URL unless the configuration allows private networks", async () => {
    const refused = await runLineage(["webhook", "add", receiver.url, "--data", join(root, "refusing")]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/WEBHOOK0400|Invalid webhook/);
    expect(refused.stderr).toContain("127.0.0.1, a loopback address");
    const badBody = await call(node, "POST", "/api/admin/webhooks/", { url: receiver.url, types: ["element.nope"] });
    expect(badBody.status).toBe(400);
    expect(badBody.json.exceptionMessage ?? badBody.text).toContain("types");
  });

  it("POSTs every change, signed, once per event, in seq order per element; a rolled-back write sends nothing", async () => {
    const created = await call(node, "POST", "/api/admin/webhooks/", { url: receiver.url, structures: ["AUTHOR"], description: "test" });
    expect(created.status).toBe(201);
    const { id, secret } = created.json.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const start = await lastSeq(node);
    for (let i = 0; i < 3; i++) {
      expect((await put(node, "AUTHOR_JANE", { au_email: `jane${i}@example.org` })).status).toBe(200);
      expect((await put(node, "AUTHOR_PIERRE", { au_email: `pierre${i}@example.org` })).status).toBe(200);
    }
    // Refused writes roll back: no event, no delivery.
    expect((await put(node, "AUTHOR_JANE", { au_name: "" })).status).toBe(400);
    expect((await put(node, "ART_HELLO", { ar_title: "Not an author" })).status).toBe(200);
    const log = (await eventsAfter(node, start)).filter((event) => event.type.startsWith("element.") && event.initid !== undefined);
    const authorSeqs = log.filter((e) => (e as { structure?: string }).structure === "AUTHOR").map((e) => e.seq);
    expect(authorSeqs).toHaveLength(6);
    await until("six deliveries", () => receiver.received.length >= 6);
    await new Promise((done) => setTimeout(done, 1500));
    // Once each, in seq order per element (two elements' deliveries may pass each other).
    expect(receiver.received.map((r) => r.event.seq).sort((a, b) => a - b)).toEqual(authorSeqs);
    const byElement = (seqs: number[]) => {
      const lists = new Map<unknown, number[]>();
      for (const seq of seqs) {
        const initid = log.find((e) => e.seq === seq)!.initid;
        lists.set(initid, [...(lists.get(initid) ?? []), seq]);
      }
      return [...lists.entries()].sort(([a], [b]) => Number(a) - Number(b));
    };
    expect(byElement(receiver.received.map((r) => r.event.seq))).toEqual(byElement(authorSeqs));
    for (const r of receiver.received) {
      expect(signatureValid(secret, r.headers, r.body)).toBe(true);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(Math.abs(Number(r.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(signatureValid("whsec_" + Buffer.from("another key, not the secret").toString("base64"), receiver.received[0]!.headers, receiver.received[0]!.body)).toBe(false);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(6);
    const listed = (await call(node, "GET", "/api/admin/webhooks/")).json.data.webhooks;
    expect(listed).toMatchObject([{ id, url: receiver.url, status: "active", structures: ["AUTHOR"], lastDelivery: { status: "delivered", attempts: 1 } }]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const cli = await runLineage(["webhook", "list", "--data", data]);
    expect(cli.stdout).toContain(`${id}  active  ${receiver.url}`);
    receiver.received.splice(0);
  });

  it("delivers every event after the receiver was down, in order per element, the same webhook-id on the retry", async () => {
    await receiver.stop();
    const start = await lastSeq(node);
    for (let i = 0; i < 3; i++) {
      expect((await put(node, "AUTHOR_JANE", { au_email: `down${i}@example.org` })).status).toBe(200);
      expect((await put(node, "AUTHOR_SAKURA", { au_email: `down${i}@example.org` })).status).toBe(200);
    }
    const [webhook] = (await call(node, "GET", "/api/admin/webhooks/")).json.data.webhooks;
    // The first attempts fail (connection refused); the next try comes about 5 s later.
    const failing = await until("a failed attempt", async () => {
      const deliveries = (await call(node, "GET", `/api/admin/webhooks/${webhook.id}/deliveries`)).json.data.deliveries;
      return deliveries.find((d: { lastError: string | null }) => d.lastError === "connection refused");
    });
    expect(failing.status).toBe("pending");
    expect((await call(node, "GET", "/api/admin/webhooks/")).json.data.webhooks[0].status).toBe("failing");
    await receiver.start();
    const expected = (await eventsAfter(node, start)).filter((e) => (e as { structure?: string }).structure === "AUTHOR");
    await until("every event after the outage", () => expected.every((e) => receiver.received.some((r) => r.event.seq === e.seq)), 30_000);
    for (const initid of new Set(expected.map((e) => e.initid))) {
      const seqs = receiver.received.filter((r) => r.event.initid === initid).map((r) => r.event.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    }
    const deliveries = (await call(node, "GET", `/api/admin/webhooks/${webhook.id}/deliveries`)).json.data.deliveries;
    const retried = deliveries.find((d: { id: string }) => d.id === failing.id);
    expect(retried).toMatchObject({ status: "delivered", attempts: 2 });
    expect(retried.attemptLog.map((a: { error: string | null; statusCode: number | null }) => [a.statusCode, a.error])).toEqual([[null, "connection refused"], [204, null]]);
    expect(receiver.received.filter((r) => r.headers["webhook-id"] === failing.id)).toHaveLength(1);
    // A retry asked for sends it again, with the same webhook-id.
    expect((await call(node, "POST", `/api/admin/webhooks/${webhook.id}/deliveries/${failing.id}/retry`)).status).toBe(200);
    await until("the retried delivery", () => receiver.received.filter((r) => r.headers["webhook-id"] === failing.id).length === 2);
    expect((await call(node, "DELETE", `/api/admin/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await call(node, "DELETE", `/api/admin/webhooks/${webhook.id}`)).status).toBe(404);
  }, 60_000);
});

describe("webhooks on two nodes (PostgreSQL)", () => {
  const receiver = new Receiver();
  let postgres: PostgresProcess;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    await receiver.start();
    postgres = await spawnPostgres(join(root, "postgres"), 0);
    const imported = await runLineage(["import", "--database", postgres.url, "--data", join(root, "import"), DEMO]);
    if (imported.status !== 0) throw new Error(imported.stderr);
    [a, b] = await Promise.all([
      spawnServe(["--database", postgres.url, "--data", join(root, "a"), "--config", config]),
      spawnServe(["--database", postgres.url, "--data", join(root, "b"), "--config", config]),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const node of [a, b]) node?.child.kill("SIGKILL");
    await receiver.stop();
    await postgres?.stop();
  });

  it("sends each event once across both nodes, whichever node the write went to", async () => {
    const added = await runLineage(["webhook", "add", receiver.url, "--database", postgres.url, "--data", join(root, "cli"), "--config", config, "--type", "element.updated"]);
    expect(added.status).toBe(0);
    const start = await lastSeq(a);
    for (let i = 0; i < 10; i++) expect((await put(i % 2 ? a : b, "AUTHOR_LENA", { au_email: `lena${i}@example.org` })).status).toBe(200);
    const seqs = (await eventsAfter(a, start)).filter((e) => e.type === "element.updated").map((e) => e.seq);
    expect(seqs).toHaveLength(10);
    await until("ten deliveries", () => receiver.received.length >= 10);
    await new Promise((done) => setTimeout(done, 2000));
    expect(receiver.received.map((r) => r.event.seq)).toEqual(seqs);
    receiver.received.splice(0);
  }, 60_000);

  it("finishes a delivery whose node was killed mid-attempt: the same webhook-id again, never zero times", async () => {
    let hung: string | undefined;
    receiver.answer = (request) => {
      if (hung === undefined) {
        hung = String(request.headers["webhook-id"]);
        return "hang";
      }
      return 204;
    };
    expect((await put(a, "AUTHOR_JANE", { au_email: "killed@example.org" })).status).toBe(200);
    await until("the attempt that hangs", () => hung);
    const [webhook] = (await call(a, "GET", "/api/admin/webhooks/")).json.data.webhooks;
    const delivery = (await call(a, "GET", `/api/admin/webhooks/${webhook.id}/deliveries`)).json.data.deliveries.find((d: { id: string }) => d.id === hung);
    const sender = Number(String(delivery.attemptLog[0].node).split(":")[1]);
    const [victim, survivor] = sender === a.child.pid ? [a, b] : [b, a];
    expect(victim.child.pid).toBe(sender);
    victim.child.kill("SIGKILL");
    await victim.exited;
    // The lease (30 s) expires; the surviving node takes the delivery over.
    await until("the delivery again", () => receiver.received.filter((r) => r.headers["webhook-id"] === hung).length >= 2, 60_000);
    const done = await until("the delivery recorded", async () => {
      const found = (await call(survivor, "GET", `/api/admin/webhooks/${webhook.id}/deliveries`)).json.data.deliveries.find((d: { id: string }) => d.id === hung);
      return found?.status === "delivered" ? found : undefined;
    });
    expect(done.attempts).toBe(2);
    expect(done.attemptLog[0].error).toMatch(/abandoned/);
    expect(Number(String(done.attemptLog[1].node).split(":")[1])).toBe(survivor.child.pid);
    const bodies = receiver.received.filter((r) => r.headers["webhook-id"] === hung).map((r) => r.body);
    expect(new Set(bodies).size).toBe(1);
  }, 90_000);
});
