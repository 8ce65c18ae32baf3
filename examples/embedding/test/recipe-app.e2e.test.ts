import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlternatingProxy, type AlternatingProxy } from "@lineage/integration-tests";
import { documentedFetch } from "@lineage/integration-tests";
import { openSharedStores, E2E_STORE, type SharedStores } from "@lineage/integration-tests";
import { createRecipeApp } from "../src/app.ts";
import { startKitchen, type Kitchen } from "./kitchen-service.ts";

let shared: SharedStores;
const servers: ServerType[] = [];
let proxy: AlternatingProxy | undefined;
let base: string;
let kitchen: Kitchen;
const cook = { authorization: `Basic ${Buffer.from("cook:cook-pw").toString("base64")}` };

function listen(app: Awaited<ReturnType<typeof createRecipeApp>>): Promise<string> {
  return new Promise<string>((resolve) => {
    servers.push(serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(`http://127.0.0.1:${info.port}`)));
  });
}

beforeAll(async () => {
  // On PostgreSQL, two instances of the app on one database, requests alternating between them.
  shared = await openSharedStores(E2E_STORE === "postgres" ? 2 : 1);
  kitchen = await startKitchen();
  const urls: string[] = [];
  // One after the other: the first seeds the recipe book, the second finds it.
  for (const store of shared.stores) urls.push(await listen(await createRecipeApp(store, { kitchen: kitchen.url })));
  proxy = urls.length > 1 ? await startAlternatingProxy(urls) : undefined;
  base = proxy?.url ?? urls[0]!;
});
afterAll(async () => {
  await proxy?.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await kitchen.close();
  await shared.dispose();
});

// The embedding app as a user runs it: a real server over a real SQLite file (or PostgreSQL).
describe("the recipe book's HTTP server", () => {
  it("serves its own route", async () => {
    expect(await (await fetch(`${base}/quick`)).json()).toEqual(["Omelette"]);
  });

  it("serves the whole Lineage API beside it, trailing slashes and error envelopes included", async () => {
    const list = await documentedFetch(`${base}/api/v2/smart-structures/RECIPE/smart-elements/?fields=document.attributes.rc_minutes`, { headers: cook });
    const body = (await list.json()) as any;
    expect(body.data.documents.map((doc: any) => doc.attributes.rc_minutes.value)).toEqual([10]);
    const missing = await documentedFetch(`${base}/api/v2/nowhere`, { headers: cook });
    expect([missing.status, ((await missing.json()) as any).messages[0].code]).toEqual([404, "API0004"]);
    const anonymous = await documentedFetch(`${base}/api/v2/smart-elements/`);
    expect(anonymous.status).toBe(401);
  });

  it("serves the API description of the embedded API", async () => {
    const document = (await (await documentedFetch(`${base}/api/v2/openapi.json`, { headers: cook })).json()) as any;
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/v2/smart-elements/{docid}"].put).toBeDefined();
  });

  it("publishes a recipe through the API: the kitchen's answer to hook m2 is the envelope's message", async () => {
    const list = await documentedFetch(`${base}/api/v2/smart-structures/RECIPE/smart-elements/`, { headers: cook });
    const [omelette] = ((await list.json()) as any).data.documents;
    const published = await documentedFetch(`${base}${omelette.uri.replace(/\.json$/, "")}/workflows/transitions/publish`, { method: "POST", headers: cook });
    expect(published.status).toBe(200);
    const body = (await published.json()) as any;
    expect(body.data.state).toMatchObject({ id: "published" });
    expect(body.messages).toEqual([{ type: "message", code: "WORKFLOW_TRANSITION", contentText: "On the kitchen board as #1" }]);
    expect(kitchen.calls.map((call) => call.path)).toEqual(["/approve", "/announce"]);
  });
});
