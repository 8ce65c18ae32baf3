import { serve } from "@hono/node-server";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createHttpApp } from "@lineage/adapter-http";
import { Hono } from "hono";
import { createRecipeBook, quickRecipes } from "./recipes.ts";

// The app's own server: its routes beside the Lineage API, which it mounts as a whole.
const store = openSqliteStore({ dataDir: process.env.DATA_DIR ?? "./data-embedding" });
const { platform, cook } = await createRecipeBook(store);
if (quickRecipes(platform, cook).length === 0) {
  platform.createElement(cook, { structure: "RECIPE", values: { rc_name: "Omelette", rc_difficulty: "easy", rc_minutes: 10, rc_step: ["Beat the eggs", "Cook them"] } });
}

const app = new Hono();
app.get("/quick", (c) => c.json(quickRecipes(platform, cook)));
app.route("/", createHttpApp({ platform }));

const port = Number(process.env.PORT ?? 8090);
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`Recipe book on http://127.0.0.1:${info.port}/quick (API under /api/v2/, login cook / cook-pw)`);
});
