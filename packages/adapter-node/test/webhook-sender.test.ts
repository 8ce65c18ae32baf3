import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLineageError, type ClaimedDelivery } from "@lineage/core";
import { addressRefusal, createWebhookDestinations, createWebhookSender } from "../src/index.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** A receiver on loopback whose answer depends on the path. */
let server: Server;
let base: string;
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk)).on("end", () => {
      seen.push({ path: request.url ?? "", headers: request.headers, body });
      if (request.url === "/ok") response.writeHead(204).end();
      else if (request.url === "/redirect") response.writeHead(302, { location: "/ok" }).end();
      else if (request.url === "/error") response.writeHead(500).end("x".repeat(100_000));
      // "/slow": never answers.
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const delivery = (url: string): ClaimedDelivery => ({
  id: "msg_test", webhookId: "wh_1", url, secret: SECRET, seq: 7, body: JSON.stringify({ seq: 7, title: "Été ☃" }), attempt: 1, since: 0,
});

async function refusal(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (error) {
    if (isLineageError(error) && error.code === "WEBHOOK0400") return error.message;
    throw error;
  }
  throw new Error("not refused");
}

describe("webhook destinations", () => {
  it("accepts only public unicast addresses unless private networks are allowed", () => {
    for (const address of ["8.8.8.8", "2606:4700:4700::1111"]) expect(addressRefusal(address)).toBeUndefined();
    expect(addressRefusal("127.0.0.1")).toBe("127.0.0.1, a loopback address");
    expect(addressRefusal("::ffff:10.0.0.1")).toBe("::ffff:10.0.0.1, a private address");
    for (const address of ["::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "fe80::1", "fd00::1", "100.64.0.1", "0.0.0.0", "::", "224.0.0.1"]) {
      expect(addressRefusal(address)).toBeDefined();
      expect(addressRefusal(address, true)).toBeUndefined();
    }
  });

  it("refuses a URL whose host resolves to a private address, with 400 WEBHOOK0400 saying how to allow it", async () => {
    const destinations = createWebhookDestinations();
    expect(await refusal(() => destinations.check("http://127.0.0.1:8080/x"))).toBe(
      "Invalid webhook: the host 127.0.0.1 resolves to 127.0.0.1, a loopback address (set webhooks.allowPrivateNetworks: true to allow private networks)",
    );
    expect(await refusal(() => destinations.check("http://localhost/"))).toMatch(/the host localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(await refusal(() => destinations.check("http://[::1]/"))).toMatch(/::1, a loopback address/);
    expect(await refusal(() => destinations.check("http://169.254.169.254/latest/meta-data"))).toMatch(/link-local/);
    expect(await refusal(() => destinations.check("ftp://example.com/"))).toMatch(/http or https/);
    expect(await refusal(() => destinations.check("https://user:pw@example.com/"))).toMatch(/user name or password/);
    expect(await refusal(() => destinations.check("https://nowhere.invalid/"))).toMatch(/cannot be resolved/);
    await createWebhookDestinations({ allowPrivateNetworks: true }).check("http://127.0.0.1:8080/x");
    await destinations.check("https://8.8.8.8/");
  });
});

describe("the webhook sender", () => {
  const sender = createWebhookSender({ allowPrivateNetworks: true, timeoutMs: 1000 });
  afterAll(() => sender.close());

  it("POSTs the body with Standard Webhooks headers that the standardwebhooks library verifies", async () => {
    seen.splice(0);
    expect(await sender.send(delivery(`${base}/ok`))).toEqual({ statusCode: 204 });
    const [request] = seen;
    expect(request!.body).toBe(delivery("").body);
    expect(request!.headers).toMatchObject({ "content-type": "application/json", "webhook-id": "msg_test" });
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(request!.body, request!.headers as Record<string, string>)).toEqual({ seq: 7, title: "Été ☃" });
    expect(() => new Webhook("whsec_" + Buffer.from("another key").toString("base64")).verify(request!.body, request!.headers as Record<string, string>)).toThrow();
  });

  it("answers a redirect as it is, never following it; reads an error answer to its end; times out", async () => {
    seen.splice(0);
    expect(await sender.send(delivery(`${base}/redirect`))).toEqual({ statusCode: 302 });
    expect(seen.map((s) => s.path)).toEqual(["/redirect"]);
    expect(await sender.send(delivery(`${base}/error`))).toEqual({ statusCode: 500 });
    const started = Date.now();
    expect(await sender.send(delivery(`${base}/slow`))).toEqual({ error: "timed out after 1 s" });
    expect(Date.now() - started).toBeLessThan(5000);
    // The connection pool still serves after a timeout.
    expect(await sender.send(delivery(`${base}/ok`))).toEqual({ statusCode: 204 });
  });

  it("refuses private addresses at delivery time unless allowed, the address connected to included", async () => {
    const strict = createWebhookSender({ timeoutMs: 1000 });
    try {
      expect(await strict.send(delivery(`${base}/ok`))).toEqual({
        error: "refused: 127.0.0.1, a loopback address (set webhooks.allowPrivateNetworks: true to allow private networks)",
      });
      const port = new URL(base).port;
      expect(await strict.send(delivery(`http://localhost:${port}/ok`))).toEqual({
        error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/),
      });
    } finally {
      await strict.close();
    }
    expect(await sender.send(delivery("http://127.0.0.1:1/"))).toEqual({ error: "connection refused" });
  });
});
