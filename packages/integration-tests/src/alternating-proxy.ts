import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A load balancer for tests: one URL in front of several nodes. */
export interface AlternatingProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Sends each request to the next node in turn (round robin per request, not per connection, as
 * nginx does over keep-alive upstreams), so that two requests in a row of a test are served by
 * two different nodes. Bodies and headers pass as they are; a node that cannot be reached is a 502.
 * With `forwardedFor`, it does what nginx does with `proxy_set_header X-Forwarded-For
 * $proxy_add_x_forwarded_for`: the client's socket address is appended to whatever
 * X-Forwarded-For the client sent (a forged one stays, to the left), and requests leave from 127.0.0.1.
 * With `failover`, it does not alternate: each request goes to the first node not known to be down,
 * and a node that cannot be reached is taken as down and a GET sent to the next one (nginx's
 * `proxy_next_upstream error`), as a load balancer does when a node dies.
 */
export async function startAlternatingProxy(nodes: readonly string[], { forwardedFor = false, failover = false } = {}): Promise<AlternatingProxy> {
  const agent = new Agent({ keepAlive: true, ...(forwardedFor ? { localAddress: "127.0.0.1" } : {}) });
  let next = 0;
  const down = new Set<string>();
  const server = createServer((incoming, answer) => {
    const send = (tries: number) => {
      const target = (failover ? nodes.find((n) => !down.has(n)) : undefined) ?? nodes[next++ % nodes.length]!;
      const node = new URL(target);
      const upstream = request({
        host: node.hostname, port: node.port, method: incoming.method, path: incoming.url, agent, setHost: false,
        headers: forwardedFor ? withForwardedFor(incoming) : incoming.headers,
      }, (response) => {
        answer.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
        response.pipe(answer);
        // A node that goes away mid-answer: the client's connection goes too (pipe would leave it open).
        response.on("close", () => {
          if (!response.complete) answer.destroy();
        });
      });
      upstream.on("error", () => {
        if (failover && !answer.headersSent && incoming.method === "GET" && tries < nodes.length) {
          down.add(target);
          send(tries + 1);
        } else if (answer.headersSent) answer.destroy();
        else answer.writeHead(502).end();
      });
      // A client that hangs up is passed on: the node sees its request aborted, as behind nginx.
      answer.on("close", () => {
        if (!answer.writableFinished) upstream.destroy();
      });
      // A GET sent again has no body left to pipe.
      if (tries === 1) incoming.pipe(upstream);
      else upstream.end();
    };
    send(1);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((closed) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}

/** The request's headers with its socket address appended to X-Forwarded-For. */
function withForwardedFor(incoming: IncomingMessage): IncomingHttpHeaders {
  const sent = incoming.headers["x-forwarded-for"];
  const peer = incoming.socket.remoteAddress ?? "unknown";
  return { ...incoming.headers, "x-forwarded-for": sent ? `${String(sent)}, ${peer}` : peer };
}
