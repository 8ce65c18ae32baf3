import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A reverse proxy for tests, on 127.0.0.1. */
export interface ForwardingProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * What nginx does with `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`: passes each
 * request to `target`, from 127.0.0.1, with the client's socket address appended to whatever
 * X-Forwarded-For the client sent (a forged one stays, to the left).
 */
export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
  const upstreamUrl = new URL(target);
  const server = createServer((incoming, answer) => {
    const sent = incoming.headers["x-forwarded-for"];
    const peer = incoming.socket.remoteAddress ?? "unknown";
    const headers: IncomingHttpHeaders = { ...incoming.headers, "x-forwarded-for": sent ? `${String(sent)}, ${peer}` : peer };
    const upstream = request({
      host: upstreamUrl.hostname, port: upstreamUrl.port, method: incoming.method, path: incoming.url, headers, localAddress: "127.0.0.1",
    }, (response) => {
      answer.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
      response.pipe(answer);
    });
    upstream.on("error", () => {
      if (answer.headersSent) answer.destroy();
      else answer.writeHead(502).end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}

/** An answer, with how long it took. */
export interface TimedAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly json: any;
  readonly ms: number;
}

/**
 * A GET sent from a given loopback address (127.0.0.2, 127.0.0.3...: all of 127/8 is this machine),
 * so that clients of one test look like different machines to a proxy.
 */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<TimedAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: "GET", headers: { accept: "application/json", ...headers }, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, json, ms: performance.now() - started });
      });
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}
