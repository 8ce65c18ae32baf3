import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "@lineage/core";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp, startServer, type RunningServer } from "@lineage/adapter-http";
import { apiClient } from "../src/api-client.ts";
import { openSharedStores, type SharedStores } from "../src/test-stores.ts";

/*
 * GET one element is served from caches checked against the change clock, read once for the
 * requests received in the same turn of the event loop, after they were received: a write by
 * another process (here, another connection on the same data directory) must show in the very
 * next answer, and so must a change of rights or roles. On PostgreSQL, "elsewhere" is another
 * node's store on the same database.
 */

let shared: SharedStores;
let served: Store;
let other: Store;
let server: RunningServer;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  shared = await openSharedStores(2);
  [served, other] = shared.stores as [Store, Store];
  const seed = await seededPlatform(served);
  server = await startServer(createHttpApp({ platform: seed.platform, onUnexpectedError: () => {} }));
  api = apiClient(server.url);
});

afterAll(async () => {
  await server.close();
  await shared.dispose();
});

const asBob = { as: ["bob", "bob-pw"] as [string, string] };

describe("GET one element after a change made elsewhere", () => {
  it("answers the new content and a new ETag after another connection's write", async () => {
    const first = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob);
    const again = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again.text).toBe(first.text);

    const hello = (await other.elements.latestByName("ART_HELLO"))!;
    await other.transaction((tx) => tx.elements.save({
      ...hello, title: "Written elsewhere", values: { ...hello.values, ar_title: "Written elsewhere" }, modifiedAt: "2026-07-01T00:00:00.000Z",
    }));
    const after = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob);
    expect(after.json.data.document.properties.title).toBe("Written elsewhere");
    expect(after.headers.get("etag")).not.toBe(first.headers.get("etag"));
    const stale = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { ...asBob, headers: { "if-none-match": first.headers.get("etag")! } });
    expect(stale.status).toBe(200);
  });

  it("refuses at once when the profile stops granting the reader's role", async () => {
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob)).status).toBe(200);
    await other.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: [], delete: [] } }));
    const refused = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob);
    expect(refused.status).toBe(403);
    await other.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor", "role:reader"], edit: ["role:editor"], delete: ["role:editor"] } }));
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob)).status).toBe(200);
  });

  it("applies an account's new roles, rights and password at the next request", async () => {
    const bob = (await other.accounts.byLogin("bob"))!;
    await other.transaction((tx) => tx.accounts.saveAccount({ ...bob, roles: [] }));
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob)).status).toBe(403);

    await other.transaction((tx) => tx.accounts.saveAccount({ ...bob, rights: [] }));
    const noRight = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob);
    expect([noRight.status, noRight.json.messages[0].code]).toEqual([403, "CRUD0105"]);

    const carol = (await other.accounts.byLogin("carol"))!;
    await other.transaction((tx) => tx.accounts.saveAccount({ ...bob, passwordHash: carol.passwordHash }));
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", asBob)).status).toBe(401);
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["bob", "carol-pw"] })).status).toBe(200);
  });
});

describe("the change clock shared by the requests of one turn", () => {
  /** Sends `count` GETs pipelined in one write on one connection; resolves to the raw answers. */
  function pipelined(count: number): Promise<string> {
    const { hostname, port } = new URL(server.url);
    const authorization = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;
    const request = `GET /api/v2/smart-elements/ART_HELLO HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${authorization}\r\nAccept: application/json\r\n\r\n`;
    return new Promise((resolve, reject) => {
      let answers = "";
      const socket = connect(Number(port), hostname, () => socket.write(request.repeat(count)));
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => {
        answers += chunk;
        if (answers.split("HTTP/1.1 200 OK").length - 1 === count) socket.end();
      });
      socket.on("end", () => resolve(answers));
      socket.on("error", reject);
    });
  }

  it("reads it once for requests received together, and again for the next ones", async () => {
    const reads = vi.spyOn(served.changes, "read");
    try {
      const answers = await pipelined(6);
      expect(answers.split("HTTP/1.1 200 OK").length - 1, answers.slice(0, 300)).toBe(6);
      expect(reads).toHaveBeenCalledTimes(1);

      const hello = (await other.elements.latestByName("ART_HELLO"))!;
      await other.transaction((tx) => tx.elements.save({ ...hello, title: "Written between two turns", modifiedAt: "2026-07-02T00:00:00.000Z" }));
      expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["admin", "admin-pw"] })).json.data.document.properties.title).toBe("Written between two turns");
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});
