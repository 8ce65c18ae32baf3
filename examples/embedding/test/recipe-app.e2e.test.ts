import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import type { Store } from "@lineage/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecipeApp } from "../src/app.ts";
import { startKitchen, type Kitchen } from "./kitchen-service.ts";

let dataDir: string;
let store: Store;
let server: ServerType;
let base: string;
let kitchen: Kitchen;
const cook = { authorization: `Basic ${Buffer.from("cook:cook-pw").toString("base64")}` };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lineage-embedding-"));
  store = openSqliteStore({ dataDir });
  kitchen = await startKitchen();
  const app = await createRecipeApp(store, { kitchen: kitchen.url });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await kitchen.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// The embedding app as a user runs it: a real server over a real SQLite file.
describe("the recipe book's HTTP server", () => {
  it("serves its own route", async () => {
    expect(await (await fetch(`${base}/quick`)).json()).toEqual(["Omelette"]);
  });

  it("serves the whole Lineage API beside it, trailing slashes and error envelopes included", async () => {
    const list = await fetch(`${base}/api/v2/smart-structures/RECIPE/smart-elements/?fields=document.attributes.rc_minutes`, { headers: cook });
    const body = (await list.json()) as any;
    expect(body.data.documents.map((doc: any) => doc.attributes.rc_minutes.value)).toEqual([10]);
    const missing = await fetch(`${base}/api/v2/nowhere`, { headers: cook });
    expect([missing.status, ((await missing.json()) as any).messages[0].code]).toEqual([404, "API0004"]);
    const anonymous = await fetch(`${base}/api/v2/smart-elements/`);
    expect(anonymous.status).toBe(401);
  });

  it("serves the API description of the embedded API", async () => {
    const document = (await (await fetch(`${base}/api/v2/openapi.json`, { headers: cook })).json()) as any;
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/v2/smart-elements/{docid}"].put).toBeDefined();
  });

  it("publishes a recipe through the API: the kitchen's answer to hook m2 is the envelope's message", async () => {
    const list = await fetch(`${base}/api/v2/smart-structures/RECIPE/smart-elements/`, { headers: cook });
    const [omelette] = ((await list.json()) as any).data.documents;
    const published = await fetch(`${base}${omelette.uri.replace(/\.json$/, "")}/workflows/transitions/publish`, { method: "POST", headers: cook });
    expect(published.status).toBe(200);
    const body = (await published.json()) as any;
    expect(body.data.state).toMatchObject({ id: "published" });
    expect(body.messages).toEqual([{ type: "message", code: "WORKFLOW_TRANSITION", contentText: "On the kitchen board as #1" }]);
    expect(kitchen.calls.map((call) => call.path)).toEqual(["/approve", "/announce"]);
  });
});
