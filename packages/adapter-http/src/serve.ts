import { serve, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import type { AddressInfo } from "node:net";
import type { HttpEnv } from "./http-env.ts";

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens with the app; resolves once the port is bound (port 0 picks a free one). */
export function startServer(app: Hono<HttpEnv>, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    let server: ServerType;
    const onListening = (info: AddressInfo) => {
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost === "0.0.0.0" ? "localhost" : shownHost}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }),
      });
    };
    server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, onListening);
    server.once("error", reject);
  });
}
