import { getRequestListener, RequestError } from "@hono/node-server";
import { LineageError } from "@lineage/core";
import type { Hono } from "hono";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { watchDeclaredBodySizes } from "./declared-body-size.ts";
import { errorEnvelope } from "./envelope.ts";
import type { Readiness } from "./health.ts";
import type { HttpEnv } from "./http-env.ts";
import { httpLimits, type HttpLimits } from "./http-limits.ts";

export interface ServerOptions {
  readonly port?: number;
  readonly host?: string;
  /** Stopped when the server starts shutting down, so that GET /health answers 503 (give the app the same one). */
  readonly readiness?: Readiness;
  /** Node's own limits: the request line and headers, and (as a backstop) the whole request. */
  readonly limits?: Partial<Pick<HttpLimits, "maxHeaderBytes" | "requestTimeoutMs">>;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** Stops at once: open connections are cut. */
  close(): Promise<void>;
  /**
   * Stops gracefully. /health answers 503 at once; for `unreadyMs` the server
   * still takes requests (time for a load balancer to notice), then it takes
   * no new connection, finishes the requests in flight (answered with
   * `Connection: close`) and cuts whatever still runs after `graceMs`.
   * Resolves with how many requests were cut.
   */
  shutdown(graceMs: number, unreadyMs?: number): Promise<{ unfinished: number }>;
}

/** Node's parser errors, before any request exists, answered with the envelope too. */
function answerClientError(error: Error & { code?: string }, socket: Socket, limits: Pick<HttpLimits, "maxHeaderBytes" | "requestTimeoutMs">): void {
  if (error.code === "ECONNRESET" || !socket.writable || (socket as { _httpMessage?: ServerResponse })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW" ? new LineageError("API0105", [limits.maxHeaderBytes])
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? new LineageError("API0106", [limits.requestTimeoutMs])
    : new LineageError("API0104", [error.code ?? "unreadable"]);
  const { status, body } = errorEnvelope(refusal);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/**
 * What @hono/node-server cannot make a Request of (a Host header or path the URL parser refuses,
 * a backslash in the path), answered with the envelope rather than its bare 400; anything else
 * thrown past the app (it answers its own errors) is a 500 envelope, its details on stderr.
 */
function answerUnreadableRequest(error: unknown): Response {
  if (error instanceof RequestError) {
    const { status, body } = errorEnvelope(new LineageError("API0104", [error.message]));
    return Response.json(body, { status });
  }
  console.error("Unexpected error outside the app:", error);
  const { status, body } = errorEnvelope(error);
  return Response.json(body, { status });
}

/**
 * Listens with the app; resolves once the port is bound (port 0 picks a free one).
 * @example
 * const server = await startServer(app, { port: 8080, readiness });
 * process.once("SIGTERM", () => server.shutdown(10_000));
 */
export function startServer(app: Hono<HttpEnv>, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const limits = httpLimits(options.limits);
  return new Promise((resolve, reject) => {
    const inFlight = new Set<ServerResponse>();
    let draining = false;
    let stopping: Promise<{ unfinished: number }> | undefined;
    let server: Server;

    const shutdown = (graceMs: number, unreadyMs = 0) => {
      options.readiness?.stop();
      stopping ??= new Promise<void>((waited) => setTimeout(waited, unreadyMs)).then(() => new Promise((done) => {
        draining = true;
        for (const response of inFlight) if (!response.headersSent) response.setHeader("Connection", "close");
        let unfinished = 0;
        const timer = setTimeout(() => {
          unfinished = inFlight.size;
          server.closeAllConnections();
        }, graceMs);
        server.close(() => {
          clearTimeout(timer);
          done({ unfinished });
        });
        server.closeIdleConnections();
      }));
      return stopping;
    };

    const onListening = (info: AddressInfo) => {
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost === "0.0.0.0" ? "localhost" : shownHost}:${info.port}`,
        port: info.port,
        close: () => shutdown(0).then(() => undefined),
        shutdown,
      });
    };
    // As @hono/node-server's serve(), with an error handler of our own (serve() takes none).
    const listener = getRequestListener(app.fetch, { hostname: host, errorHandler: answerUnreadableRequest });
    server = createServer({ maxHeaderSize: limits.maxHeaderBytes }, (request, response) => void listener(request, response));
    // A backstop behind the app's own timeout (503 API0101), for bodies that never finish arriving.
    server.requestTimeout = limits.requestTimeoutMs + 10_000;
    server.headersTimeout = Math.min(60_000, server.requestTimeout);
    server.on("request", (_request: IncomingMessage, response: ServerResponse) => {
      inFlight.add(response);
      if (draining) response.setHeader("Connection", "close");
      response.once("close", () => {
        inFlight.delete(response);
        if (draining) server.closeIdleConnections();
      });
    });
    server.on("clientError", (error: Error, socket: Socket) => answerClientError(error, socket, limits));
    // Node would answer an Expect other than 100-continue with a bare 417: the app answers it (417 API0107).
    server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => server.emit("request", request, response));
    watchDeclaredBodySizes(server);
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => onListening(server.address() as AddressInfo));
  });
}
