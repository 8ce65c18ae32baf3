import { serve } from "@hono/node-server";
import { openPostgresStore } from "@lineage/adapter-postgres";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createRecipeApp } from "./app.ts";

// SQLite in DATA_DIR by default; with DATABASE_URL, PostgreSQL, where several instances may run side by side.
const store = process.env.DATABASE_URL
  ? await openPostgresStore({ url: process.env.DATABASE_URL })
  : openSqliteStore({ dataDir: process.env.DATA_DIR ?? "./data-embedding" });
// Publishing a recipe calls this service (src/publishing.ts); without it, publishing is refused.
const app = await createRecipeApp(store, { kitchen: process.env.KITCHEN_URL });

const port = Number(process.env.PORT ?? 8090);
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`Recipe book on http://127.0.0.1:${info.port}/quick (API under /api/v2/, login cook / cook-pw)`);
});
