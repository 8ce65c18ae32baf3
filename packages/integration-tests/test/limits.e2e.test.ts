import { connect } from "node:net";
import { createPlatform, createScryptPasswordHasher, type Store, type TransitionHooks } from "@lineage/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform, recordingHooks } from "@lineage/core/testing";
import { createHttpApp, startServer, type RunningServer } from "@lineage/adapter-http";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";
import { documentedFetch, expectDocumentedRawAnswer } from "../src/openapi-answers.ts";

/*
 * The limits of docs/limits.md over a real server: body and upload size, JSON depth, the slice cap,
 * the request timeout, header size, and what Node's parser refuses (bad bytes, NUL): always the envelope.
 */

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;
const ADMIN = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;
const LIMITS = { maxBodyBytes: 4096, maxUploadBytes: 100, maxJsonDepth: 8, requestTimeoutMs: 1500, maxHeaderBytes: 4096 };

let live: LiveServer<Seed>;
/** The password hasher of the second apps: the fixture's cost (its stored hashes carry their cost, so any scrypt hasher verifies them). */
const hasher = createScryptPasswordHasher({ N: 1024 });
let server: RunningServer;
let base: string;
const unexpected: unknown[] = [];

beforeAll(async () => {
  live = await startLiveServer((store) => lifecyclePlatform(store));
  // A second app on the same store, with small limits and a list cap of 2.
  const platform = createPlatform({ store: live.seed.store, clock: live.seed.clock, hasher, maxSlice: 2 });
  const app = createHttpApp({ platform, limits: LIMITS, onUnexpectedError: (error) => unexpected.push(error) });
  server = await startServer(app, { limits: LIMITS });
  base = server.url;
});
afterAll(async () => {
  await server.close();
  await live.close();
  expect(unexpected).toEqual([]);
});

/** Writes raw bytes on a new connection and reads the whole answer (the server closes or answers). */
function raw(bytes: Buffer | string, { waitMs = 5000 } = {}): Promise<{ status: number; headers: string; body: any }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer"));
    }, waitMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      try {
        expectDocumentedRawAnswer(bytes, Buffer.concat(chunks));
      } catch (error) {
        reject(error as Error);
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      let body: unknown;
      try {
        body = JSON.parse(rest.join("\r\n\r\n"));
      } catch {
        body = rest.join("\r\n\r\n");
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    });
    socket.write(bytes);
  });
}

const request = (line: string, headers: string[] = [], body = "") =>
  `${line}\r\nHost: x\r\nAuthorization: ${ADMIN}\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${body}`;

const codeOf = (answer: { body: any }) => answer.body?.messages?.[0]?.code;

describe("Node's parser refusals get the envelope", () => {
  it("invalid bytes, NUL and control characters in the request line or headers: 400 API0104", async () => {
    for (const line of [Buffer.from("GET /api/v2/smart-elements/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"), "GET /a b c HTTP/1.1\r\n\r\n", "NOPE\r\n\r\n", "GET / HTTP/1.1\r\nBad Header: \u0001\r\n\r\n"]) {
      const answer = await raw(line);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, data: null, messages: [{ code: "API0104" }] });
    }
  });

  it("invalid UTF-8 in the path is a name like any other: 404 with the envelope", async () => {
    const answer = await raw(Buffer.concat([Buffer.from("GET /api/v2/smart-elements/"), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: ${ADMIN}\r\nConnection: close\r\n\r\n`)]));
    expect([400, 404]).toContain(answer.status);
    expect(answer.body.success).toBe(false);
  });

  it("headers over the limit: 431 API0105", async () => {
    const answer = await raw(request("GET /api/v2/smart-elements/ HTTP/1.1", [`X-Big: ${"a".repeat(8000)}`]));
    expect(answer.status).toBe(431);
    expect(codeOf(answer)).toBe("API0105");
  });

  it("a path or Host header no URL can be made of: 400 API0104 with the envelope, not a bare 400", async () => {
    const backslash = await raw(request("GET /api/v2/smart-elements/NOTE\\01 HTTP/1.1"));
    const badHost = await raw(`GET /api/v2/smart-elements/ART_HELLO HTTP/1.1\r\nHost: a b\r\nAuthorization: ${ADMIN}\r\nConnection: close\r\n\r\n`);
    for (const answer of [backslash, badHost]) {
      expect(answer.status).toBe(400);
      expect(answer.headers).toMatch(/content-type: application\/json/i);
      expect(answer.body).toMatchObject({ success: false, data: null, messages: [{ type: "error", code: "API0104" }] });
    }
    expect(backslash.body.messages[0].contentText).toBe("Malformed HTTP request: Backslash in request path");
  });

  it("an Expect other than 100-continue: 417 API0107 with the envelope and a request id; 100-continue is served", async () => {
    const refused = await raw(request("GET /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Expect: x"]));
    expect(refused.status).toBe(417);
    expect(refused.headers).toMatch(/x-request-id: \S+/i);
    expect(refused.body).toMatchObject({ success: false, data: null, messages: [{ code: "API0107", contentText: 'Expectation "x" is not supported: only "100-continue" is' }] });
    const body = JSON.stringify({ document: { attributes: { ar_title: { value: "Hello" } } } });
    const { port } = new URL(base);
    const continued = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString("utf8");
        // Node says 100 Continue before the body is sent, as the client asked.
        if (text.startsWith("HTTP/1.1 100 Continue\r\n\r\n") && !text.includes("200 OK")) socket.write(body);
      });
      socket.on("close", () => resolve(text));
      socket.write(request("PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Expect: 100-continue", "Content-Type: application/json", `Content-Length: ${body.length}`]));
    });
    expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });
});

describe("body limits", () => {
  const put = (body: string, type = "application/json") =>
    raw(request(`PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1`, [`Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`], body));

  it("a body over the limit: 413 API0010, with Content-Length or chunked", async () => {
    const big = JSON.stringify({ document: { attributes: { ar_title: { value: "x".repeat(5000) } } } });
    const declared = await put(big);
    expect(declared.status).toBe(413);
    expect(codeOf(declared)).toBe("API0010");
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const chunked = await raw(request("PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Content-Type: application/json", "Transfer-Encoding: chunked"], `${chunk(big.slice(0, 3000))}${chunk(big.slice(3000))}0\r\n\r\n`));
    expect(chunked.status).toBe(413);
    expect(codeOf(chunked)).toBe("API0010");
  });

  it("a chunk size declared over the limit: 413 API0010 at once, not when the request times out; nothing written", async () => {
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const before = (await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO")).text;
    // 2^64-1 bytes announced and none sent; then a small first chunk and a second one over the limit.
    for (const declared of ["ffffffffffffffff\r\n", `${chunk('{"document":')}1000;name=value\r\n{"attributes"`]) {
      const started = performance.now();
      const answer = await raw(request("PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Content-Type: application/json", "Transfer-Encoding: chunked"], declared));
      expect(performance.now() - started).toBeLessThan(LIMITS.requestTimeoutMs / 2);
      expect(answer.status).toBe(413);
      expect(answer.headers).toMatch(/connection: close/i);
      expect(codeOf(answer)).toBe("API0010");
    }
    expect((await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO")).text).toBe(before);
  });

  it("chunk sizes are followed across the requests of a keep-alive connection (extensions, trailers, lengths)", async () => {
    const chunk = (text: string, extension = "") => `${Buffer.byteLength(text).toString(16)}${extension}\r\n${text}\r\n`;
    const put = (title: string) => JSON.stringify({ document: { attributes: { ar_title: { value: title } } } });
    const head = (framing: string) => `PUT /api/v2/smart-elements/ART_ZEBRA?fields=document.properties.id HTTP/1.1\r\nHost: x\r\nAuthorization: ${ADMIN}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
    const first = put("Chunked, with a trailer");
    const second = put("Sent with a length");
    const started = performance.now();
    const answer = await raw(
      `${head("Transfer-Encoding: chunked")}${chunk(first.slice(0, 7), ";a=b")}${chunk(first.slice(7))}0\r\nX-Checksum: 1\r\n\r\n` +
      `${head(`Content-Length: ${second.length}`)}${second}` +
      `${head("Transfer-Encoding: gzip, chunked")}FFFFFFFFFFFF\r\n`,
    );
    expect(performance.now() - started).toBeLessThan(LIMITS.requestTimeoutMs / 2);
    expect([...answer.headers.concat(JSON.stringify(answer.body)).matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1])).toEqual(["200", "200", "413"]);
    // Node runs pipelined requests side by side: either write may land last.
    const zebra = await live.api.call("GET", "/api/v2/smart-elements/ART_ZEBRA");
    expect(["Chunked, with a trailer", "Sent with a length"]).toContain(zebra.json.data.document.attributes.ar_title.value);
  });

  it("a body of declared length arriving in pieces is read whole as UTF-8: a character split between two pieces, a byte order mark dropped", async () => {
    const title = "Grüße 東京 ✓";
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ document: { attributes: { ar_title: { value: title } } } }))]);
    // Cut inside the three bytes of 東.
    const cut = body.indexOf(Buffer.from("東")) + 1;
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString("utf8")));
      socket.on("error", reject);
      socket.on("close", () => resolve(text));
      socket.write(request("PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Content-Type: application/json", `Content-Length: ${body.length}`]));
      socket.write(body.subarray(0, cut));
      setTimeout(() => socket.write(body.subarray(cut)), 100);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    const read = await fetch(`${base}/api/v2/smart-elements/ART_HELLO`, { headers: { authorization: ADMIN, accept: "application/json" } });
    expect(((await read.json()) as any).data.document.attributes.ar_title.value).toBe(title);
  });

  it("JSON deeper than the limit: 400 API0009", async () => {
    const answer = await put(`{"document":{"attributes":{"ar_title":{"value":${"[".repeat(10)}${"]".repeat(10)}}}}}`);
    expect(answer.status).toBe(400);
    expect(answer.body.messages[0].contentText).toContain("deeper than 8 levels");
  });

  it("a file over the upload limit: 413 API0102 naming the file; nothing written", async () => {
    const before = await documentedFetch(`${base}/api/v2/smart-elements/ART_HELLO`, { headers: { authorization: ADMIN } }).then((r) => r.json() as Promise<any>);
    const form = new FormData();
    form.append("ar_title", "Changed by an upload");
    form.append("ar_body", new Blob(["y".repeat(101)]), "big.txt");
    const response = await documentedFetch(`${base}/api/v2/smart-elements/ART_HELLO`, { method: "PUT", headers: { authorization: ADMIN }, body: form });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).messages[0]).toMatchObject({ code: "API0102", contentText: 'File "big.txt" is larger than the upload limit of 100 bytes' });
    const after = await documentedFetch(`${base}/api/v2/smart-elements/ART_HELLO`, { headers: { authorization: ADMIN } }).then((r) => r.json() as Promise<any>);
    expect(after.data.document.properties.revision).toBe(before.data.document.properties.revision);
  });
});

describe("slice cap", () => {
  it("slice=all beyond the cap is refused with a clear message; within it, served", async () => {
    const all = await documentedFetch(`${base}/api/v2/smart-elements/?slice=all`, { headers: { authorization: ADMIN } });
    expect(all.status).toBe(400);
    expect(((await all.json()) as any).messages[0]).toMatchObject({
      code: "ROUTES0141", contentText: 'Slice "all" would return more than 2 elements: ask for pages with slice and offset',
    });
    const numbered = await documentedFetch(`${base}/api/v2/smart-elements/?slice=3`, { headers: { authorization: ADMIN } });
    expect(((await numbered.json()) as any).messages[0]).toMatchObject({ code: "ROUTES0139", contentText: expect.stringContaining("at most 2") });
    const page = await documentedFetch(`${base}/api/v2/smart-elements/?slice=2&offset=1`, { headers: { authorization: ADMIN } }).then((r) => r.json() as Promise<any>);
    expect(page.data.documents).toHaveLength(2);
    const revisions = await documentedFetch(`${base}/api/v2/smart-elements/ART_HELLO/revisions/?slice=all`, { headers: { authorization: ADMIN } });
    expect(revisions.status).toBe(200);
  });
});

describe("request timeout", () => {
  it("a body that arrives too slowly: 503 API0101 with Retry-After, and the change is never written", async () => {
    const { port } = new URL(base);
    const body = JSON.stringify({ document: { attributes: { ar_title: { value: "Too late" } } } });
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {});
    const sent = Date.now();
    // The answer comes when the 1500 ms timeout fires: wait for its whole envelope, not a fixed time.
    const answered = new Promise<void>((resolve) => {
      const whole = () => /\{.*\}/s.test(Buffer.concat(chunks).toString("utf8"));
      socket.on("data", () => whole() && resolve());
      socket.on("close", () => resolve());
    });
    socket.write(request("PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1", ["Content-Type: application/json", `Content-Length: ${body.length}`], body.slice(0, 10)));
    await answered;
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1400);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text).toMatch(/^HTTP\/1\.1 503/);
    expect(text).toMatch(/retry-after: 5/i);
    expect(JSON.parse(/\{.*\}/s.exec(text)?.[0] ?? "").messages[0]).toMatchObject({ code: "API0101", contentText: "The request took longer than 1500 ms" });
    socket.end(body.slice(10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await documentedFetch(`${base}/api/v2/smart-elements/ART_HELLO`, { headers: { authorization: ADMIN } }).then((r) => r.json() as Promise<any>);
    expect(after.data.document.attributes.ar_title.value).not.toBe("Too late");
  });
});

describe("a write whose transaction is still open when its time is up", () => {
  const TIMEOUT = { requestTimeoutMs: 300 };

  /** A promise and what settles it: lets the test decide when the slow part of a write goes on. */
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  }

  /** A second app on the live server's store (or a stand-in of it), answering 503 after 300 ms. */
  async function withTinyTimeout(options: { store?: Store; hooks?: TransitionHooks }, run: (url: string) => Promise<void>) {
    const { seed } = live;
    const platform = createPlatform({ store: options.store ?? seed.store, clock: seed.clock, hasher, ...(options.hooks ? { hooks: options.hooks } : {}) });
    const tiny = await startServer(createHttpApp({ platform, limits: TIMEOUT, onUnexpectedError: (error) => unexpected.push(error) }), { limits: TIMEOUT });
    try {
      await run(tiny.url);
    } finally {
      await tiny.close();
    }
  }

  async function expect503(answer: Response) {
    expect([answer.status, answer.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(((await answer.json()) as any).messages[0]).toMatchObject({ code: "API0101", contentText: "The request took longer than 300 ms" });
  }

  /** Resolves once every transaction begun so far has ended: SQLite runs them one after the other. */
  const transactionsEnded = () => live.seed.store.transaction(() => Promise.resolve());

  it("a PUT still waiting to commit: 503 API0101, rolled back, and the element is unchanged", async () => {
    const store = live.seed.store;
    const reached = gate();
    const proceed = gate();
    // A slow database: the transaction has written, and waits (until the test says so) before it may commit.
    const transaction: Store["transaction"] = (fn, options) => store.transaction(async (tx) => {
      const result = await fn(tx);
      reached.open();
      await proceed.opened;
      return result;
    }, options);
    const before = await live.api.call("GET", "/api/v2/smart-elements/ART_ZEBRA");
    await withTinyTimeout({ store: { ...store, transaction } }, async (url) => {
      let inTransaction = false;
      void reached.opened.then(() => (inTransaction = true));
      const answer = await documentedFetch(`${url}/api/v2/smart-elements/ART_ZEBRA`, {
        method: "PUT", headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ document: { attributes: { ar_title: { value: "Committed after its 503" } } } }),
      });
      expect(inTransaction).toBe(true);
      await expect503(answer);
      proceed.open();
      await transactionsEnded();
    });
    const after = await live.api.call("GET", "/api/v2/smart-elements/ART_ZEBRA");
    expect(after.json.data.document.properties).toEqual(before.json.data.document.properties);
    expect(after.text).toBe(before.text);
  });

  it("a PUT that committed in time is answered with its outcome, however long the rest takes: never a 503 for a stored write", async () => {
    const store = live.seed.store;
    const committed = gate();
    const proceed = gate();
    // The transaction commits at once; what comes after it (rendering the answer) waits until the test says so.
    const transaction: Store["transaction"] = async (fn, options) => {
      const result = await store.transaction(fn, options);
      committed.open();
      await proceed.opened;
      return result;
    };
    await withTinyTimeout({ store: { ...store, transaction } }, async (url) => {
      const answering = documentedFetch(`${url}/api/v2/smart-elements/ART_ZEBRA`, {
        method: "PUT", headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ document: { attributes: { ar_title: { value: "Committed in time" } } } }),
      });
      await committed.opened;
      // Past the 300 ms timeout, with the write committed and its answer not yet sent.
      await new Promise((resolve) => setTimeout(resolve, 600));
      proceed.open();
      const answer = await answering;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as any).data.document.attributes.ar_title.value).toBe("Committed in time");
    });
    const after = await live.api.call("GET", "/api/v2/smart-elements/ART_ZEBRA");
    expect(after.json.data.document.attributes.ar_title.value).toBe("Committed in time");
  });

  it("a transition whose hook m1 is still waiting: 503 API0101, and the element keeps its state and revisions", async () => {
    const { seed } = live;
    const admin = await seed.principal("admin");
    const article = await seed.platform.elements.create(admin, { structure: "ARTICLE", values: { ar_title: "Slow review" } });
    await seed.platform.lifecycle.runTransition(admin, String(article.initid), "submit", {});
    const path = `/api/v2/smart-elements/${article.initid}`;
    const revisions = async () => (await live.api.call("GET", `${path}/revisions/?fields=document.properties.revision,document.properties.state`)).json.data.revisions
      .map((r: any) => [r.properties.revision, r.properties.state.reference]);
    expect(await revisions()).toEqual([[1, "review"], [0, "draft"]]);
    const reached = gate();
    const proceed = gate();
    const calls: string[] = [];
    // Hook m1 of "publish" calls a slow service: the state change's transaction stays open meanwhile.
    const hooks = recordingHooks(calls, { check: async () => {
      reached.open();
      await proceed.opened;
    } });
    await withTinyTimeout({ hooks }, async (url) => {
      let inTransaction = false;
      void reached.opened.then(() => (inTransaction = true));
      const answer = await documentedFetch(`${url}${path}/workflows/transitions/publish`, {
        method: "POST", headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ parameters: { pub_date: "2026-05-01" } }),
      });
      expect(inTransaction).toBe(true);
      await expect503(answer);
      proceed.open();
      await transactionsEnded();
    });
    expect(calls.filter((call) => call.startsWith("m3"))).toEqual([]);
    expect(await revisions()).toEqual([[1, "review"], [0, "draft"]]);
  });
});
