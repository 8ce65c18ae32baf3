import { request, type IncomingHttpHeaders } from "node:http";
import { startAlternatingProxy, type AlternatingProxy } from "./alternating-proxy.ts";
import { expectDocumentedAnswer } from "./openapi-answers.ts";

/**
 * A reverse proxy in front of `target` that appends the client's address to X-Forwarded-For, as
 * nginx does (alternating-proxy.ts, with one node).
 */
export function startForwardingProxy(target: string): Promise<AlternatingProxy> {
  return startAlternatingProxy([target], { forwardedFor: true });
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
        try {
          expectDocumentedAnswer({ method: "GET", url, status: response.statusCode ?? 0, contentType: response.headers["content-type"] ?? null, body: text });
        } catch (error) {
          reject(error as Error);
          return;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, json, ms: performance.now() - started });
      });
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}
