import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Platform, type Store } from "@lineage/core";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp, startServer, type RunningServer } from "@lineage/adapter-http";
import { apiClient } from "../src/api-client.ts";
import { openSharedStores, type SharedStores } from "../src/test-stores.ts";

/*
 * A server whose search index must be built listens at once: while the index is built, /health names
 * the domain, its searches answer 503 FSEA0004 with Retry-After, and every other route works. The
 * build is held at a gate (the event log read), so the test does not race it.
 */

let shared: SharedStores;
let server: RunningServer;
let platform: Platform;
let api: ReturnType<typeof apiClient>;
let gate: Promise<void> | undefined;

/** The store with its event log reads waiting for the gate while one is set. */
function gated(store: Store): Store {
  return { ...store, events: { ...store.events, after: async (seq, limit, filter) => {
    await gate;
    return store.events.after(seq, limit, filter);
  } } };
}

beforeAll(async () => {
  shared = await openSharedStores(1);
  const store = shared.stores[0]!;
  await seededPlatform(store);
  await store.search.saveDomain({
    name: "articles", lang: "en", stem: "english",
    configs: [{ structure: "ARTICLE", fields: [{ field: "ar_title", weight: "A" }], files: [], callables: [] }],
  });
  platform = createPlatform({ store: gated(store), hasher: createScryptPasswordHasher({ N: 1024 }), searchLog: () => {}, searchOpenWaitMs: 100 });
  server = await startServer(createHttpApp({ platform, onUnexpectedError: () => {} }));
  api = apiClient(server.url);
});

afterAll(async () => {
  await platform.fullsearch.engine.stop();
  await server.close();
  await shared.dispose();
});

const asAdmin = { as: ["admin", "admin-pw"] as [string, string] };
const building = async () => (await api.call("GET", "/health", { as: null })).json.data.building.searchDomains as string[];

describe("a server whose search index is being built", () => {
  it("names it in /health, answers its searches 503 with Retry-After, serves the rest, then searches", async () => {
    let open = () => {};
    gate = new Promise<void>((resolve) => (open = resolve));
    await platform.fullsearch.engine.start({ background: true });
    expect(await building()).toEqual(["articles"]);

    const refused = await api.call("GET", "/api/v2/fullsearch/domains/articles/smart-elements/?q=hello", asAdmin);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.json).toMatchObject({ success: false, messages: [{ code: "FSEA0004" }] });
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO.json", asAdmin)).status).toBe(200);

    gate = undefined;
    open();
    for (let tries = 0; (await building()).length > 0; tries++) {
      expect(tries).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const found = await api.call("GET", "/api/v2/fullsearch/domains/articles/smart-elements/?q=hello", asAdmin);
    expect(found.status).toBe(200);
    expect(found.json.data.documents.map((d: { properties: { title: string } }) => d.properties.title)).toEqual(["Hello"]);
  });
});
