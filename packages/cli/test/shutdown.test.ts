import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO, basic, spawnServe, type ServeProcess } from "./serve-process.ts";

/*
 * Graceful shutdown of the real `lineage serve`: SIGTERM (or SIGINT) makes /health say 503, closes
 * the listener, lets the request in flight finish, closes the database and exits 0.
 */

const dirs: string[] = [];
const running: ServeProcess[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-shutdown-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const serve of running) if (serve.child.exitCode === null) serve.child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A PUT whose body is sent in two parts: the second when `finish` is called; resolves to the raw answer. */
function slowPut(url: string, title: string) {
  const { port } = new URL(url);
  const body = JSON.stringify({ document: { attributes: { ar_title: { value: title } } } });
  const socket = connect(Number(port), "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  const answered = new Promise<string>((done) => {
    socket.on("close", () => done(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", () => done(Buffer.concat(chunks).toString("utf8")));
  });
  socket.write(`PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic("admin", "admin")}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`);
  return { answered, finish: () => socket.write(body.slice(20)) };
}

const health = (url: string) => fetch(`${url}/health`).then(async (r) => ({ status: r.status, body: await r.json() }));

describe("lineage serve, shut down by a signal", () => {
  it("SIGTERM: unready at once, the request in flight finishes, the listener closes, the database closes, exit 0", async () => {
    const data = tempDir();
    const serve = await spawnServe(["--data", data, "--bundle", DEMO, "--shutdown-delay", "1", "--shutdown-grace", "10"]);
    running.push(serve);
    expect(await health(serve.url)).toMatchObject({ status: 200, body: { success: true, messages: [], data: { status: "ready" } } });

    const put = slowPut(serve.url, "Finished during shutdown");
    await sleep(300);
    serve.child.kill("SIGTERM");
    await sleep(300);
    // During the delay the server still answers, but tells load balancers it is going away.
    const unready = await health(serve.url);
    expect(unready.status).toBe(503);
    expect(unready.body).toMatchObject({ success: false, data: { status: "stopping" }, messages: [{ code: "API0103" }] });
    await sleep(1200);
    // The listener is closed now; the PUT in flight is still served.
    await expect(fetch(`${serve.url}/health`)).rejects.toThrow();
    put.finish();
    const answer = await put.answered;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain("connection: close");

    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.stdout.some((line) => line.includes("Lineage stopped"))).toBe(true);
    const logged = serve.stdout.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
    expect(logged).toContainEqual(expect.objectContaining({ method: "PUT", path: "/api/v2/smart-elements/ART_HELLO", status: 200 }));
    // A cleanly closed SQLite database leaves no write-ahead log behind.
    expect(existsSync(join(data, "lineage.sqlite-wal"))).toBe(false);

    const again = await spawnServe(["--data", data]);
    running.push(again);
    const read = await fetch(`${again.url}/api/v2/smart-elements/ART_HELLO`, { headers: { authorization: basic("admin", "admin") } }).then((r) => r.json() as Promise<any>);
    expect(read.data.document.attributes.ar_title.value).toBe("Finished during shutdown");
    again.child.kill("SIGINT");
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it("the grace period is bounded: a request that never finishes is cut, and the process still exits 0", async () => {
    const serve = await spawnServe(["--data", tempDir(), "--bundle", DEMO, "--shutdown-grace", "1", "--log-level", "silent"]);
    running.push(serve);
    const put = slowPut(serve.url, "Never finished");
    await sleep(300);
    const started = Date.now();
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(serve.stderr.join("\n")).toContain("1 request(s) cut");
    expect(await put.answered).toBe("");
    expect(serve.stdout.filter((line) => line.startsWith("{"))).toEqual([]);
  }, 90_000);
});
