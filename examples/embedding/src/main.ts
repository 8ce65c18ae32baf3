import { serve } from "@hono/node-server";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createRecipeApp } from "./app.ts";

const store = openSqliteStore({ dataDir: process.env.DATA_DIR ?? "./data-embedding" });
// Publishing a recipe calls this service (src/publishing.ts); without it, publishing is refused.
const app = await createRecipeApp(store, { kitchen: process.env.KITCHEN_URL });

const port = Number(process.env.PORT ?? 8090);
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`Recipe book on http://127.0.0.1:${info.port}/quick (API under /api/v2/, login cook / cook-pw)`);
});
