import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A call the kitchen service received. */
export interface KitchenCall {
  readonly path: string;
  readonly body: unknown;
}

/** A stand-in for the kitchen service publishing calls (src/publishing.ts). */
export interface Kitchen {
  /** Its base URL: `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** The calls received, oldest first. */
  readonly calls: KitchenCall[];
  /** The answer to give by path (`/approve`, `/announce`) instead of 200. */
  readonly answers: Map<string, { status: number; text: string }>;
  close(): Promise<void>;
}

/** The kitchen service on 127.0.0.1 and a free port: records the calls it gets, and answers as told (200 by default). */
export async function startKitchen(): Promise<Kitchen> {
  const calls: KitchenCall[] = [];
  const answers = new Map<string, { status: number; text: string }>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      calls.push({ path, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      const answer = answers.get(path) ?? { status: 200, text: path === "/announce" ? "On the kitchen board as #1" : "" };
      response.writeHead(answer.status, { "Content-Type": "text/plain" }).end(answer.text);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls,
    answers,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
