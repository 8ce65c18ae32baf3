import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { createRequestLogger, type Logger } from "@lineage/adapter-http";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

/*
 * Request logs over a real server, the log stream captured: one JSON line per request, the request
 * id echoed, and never a password, token, cookie or Authorization header, whatever the client sends.
 */

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;
const lines: string[] = [];
const logger: Logger = createRequestLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
let live: LiveServer<Seed>;

beforeAll(async () => {
  live = await startLiveServer(async (store) => {
    const seed = await lifecyclePlatform(store);
    // A platform whose trash listing fails unexpectedly, to see how that is logged.
    const platform = { ...seed.platform, trash: { ...seed.platform.trash, list: () => { throw new Error("disk on fire at /secret/path"); } } };
    return { ...seed, platform };
  }, { logger, onUnexpectedError: undefined });
});
afterAll(() => live.close());

const SECRETS = ["admin-pw", "s3cr3t-session-value", "0123456789abcdef0123456789abcdef01234567", "alice-pw"];
const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("request logs", () => {
  it("write one line per request with its id, method, redacted path, status, duration and login", async () => {
    lines.length = 0;
    const ok = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO?fields=document.properties", { headers: { "x-request-id": "trace-42" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("trace-42");
    const refused = await live.api.call("GET", `/api/v2/smart-elements/?ank-authorization=${SECRETS[2]}&password=alice-pw`, {
      as: ["admin", "wrong"], headers: { cookie: `anksession-80=${SECRETS[1]}`, "x-request-id": "bad id {\"level\":60}" },
    });
    expect(refused.status).toBe(401);
    const generated = refused.headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const form = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", {
      headers: { "content-type": "application/x-www-form-urlencoded" }, body: `ar_title=${encodeURIComponent("password=alice-pw")}`,
    });
    expect(form.status).toBe(200);

    const logged = parsed().filter((line) => line.msg === "request");
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatchObject({ reqId: "trace-42", method: "GET", path: "/api/v2/smart-elements/ART_HELLO?fields=document.properties", status: 200, user: "admin", level: 30 });
    expect(typeof logged[0]?.ms).toBe("number");
    expect(logged[1]).toMatchObject({ reqId: generated, status: 401, path: "/api/v2/smart-elements/?ank-authorization=[redacted]&password=[redacted]" });
    expect(logged[2]).toMatchObject({ method: "PUT", status: 200 });
    const all = lines.join("");
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    expect(all.toLowerCase()).not.toContain("authorization\"");
    expect(all.toLowerCase()).not.toContain("cookie");
  });

  it("log an unexpected error with the request id, and answer the client a bare 500", async () => {
    lines.length = 0;
    // privateid: a credential to redact that, unlike a token in ank-authorization, does not choose the authenticator.
    const failed = await live.api.call("GET", "/api/v2/trash/?privateid=0123456789abcdef0123456789abcdef01234567");
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ success: false, data: null, messages: [{ type: "error", contentText: "Internal server error", code: "API0001" }] });
    expect(failed.text).not.toContain("disk on fire");
    const id = failed.headers.get("x-request-id");
    const error = parsed().find((line) => line.msg === "unexpected error");
    expect(error).toMatchObject({ reqId: id, level: 50, method: "GET", path: "/api/v2/trash/?privateid=[redacted]" });
    expect(JSON.stringify(error)).toContain("disk on fire");
    expect(parsed().find((line) => line.msg === "request")).toMatchObject({ reqId: id, status: 500, level: 50 });
    expect(lines.join("")).not.toContain(SECRETS[2]);
  });

  it("log the refusals made before any route, with their status and request id", async () => {
    lines.length = 0;
    const override = await live.api.call("POST", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": "PATCH" } });
    const accept = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { accept: "text/csv" } });
    const statuses = [override, accept].map((answer) => [answer.status, answer.json.messages[0].code, answer.headers.get("x-request-id")]);
    expect(statuses).toEqual([[400, "API0008", expect.any(String)], [400, "API0006", expect.any(String)]]);
    expect(parsed().filter((line) => line.msg === "request")).toMatchObject([
      { reqId: statuses[0]?.[2], method: "POST", status: 400 },
      { reqId: statuses[1]?.[2], method: "GET", status: 400 },
    ]);
  });

  it("a client hanging up in the middle of its body: one line at level info, aborted and with no status (none was sent), no unexpected error", async () => {
    lines.length = 0;
    const { port } = new URL(live.url);
    const auth = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;
    const framings = ["Content-Length: 1000", "Transfer-Encoding: chunked"];
    for (const [index, framing] of framings.entries()) {
      const socket = connect(Number(port), "127.0.0.1");
      socket.on("error", () => {});
      socket.write(`PUT /api/v2/smart-elements/ART_HELLO HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nX-Request-Id: gone-${index}\r\n` +
        `Content-Type: application/json\r\n${framing}\r\n\r\n${framing.startsWith("Transfer") ? "40\r\n" : ""}{"document":`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
    }
    const logged = async () => {
      for (let waited = 0; waited < 3000 && parsed().filter((line) => line.msg === "request").length < framings.length; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return parsed();
    };
    const all = await logged();
    expect(all.filter((line) => line.msg === "unexpected error")).toEqual([]);
    const requests = all.filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.reqId, line.level, line.aborted, "status" in line])).toEqual([["gone-0", 30, true, false], ["gone-1", 30, true, false]]);
    expect(lines.join("")).not.toMatch(/\bat \S+ \(/);
  });

  it("health needs no credentials and is logged like any request", async () => {
    lines.length = 0;
    const health = await live.api.call("GET", "/health", { as: null });
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ success: true, messages: [], data: { status: "ready", building: { searchDomains: [] } } });
    expect(parsed()[0]).toMatchObject({ path: "/health", status: 200 });
  });
});
