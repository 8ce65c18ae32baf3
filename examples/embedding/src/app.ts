import { createHttpApp } from "@lineage/adapter-http";
import type { Store } from "@lineage/core";
import { Hono } from "hono";
import { createRecipeBook, quickRecipes, type RecipeBookOptions } from "./recipes.ts";

/**
 * The app's own HTTP server: its routes beside the whole Lineage API.
 * Lineage is handed every /api/ request as is, through its own fetch: so its
 * 404 envelope, trailing-slash tolerance and X-HTTP-Method-Override stay
 * intact (`app.route` would merge only its routes).
 */
export async function createRecipeApp(store: Store, options: RecipeBookOptions = {}): Promise<Hono> {
  const { platform, cook } = await createRecipeBook(store, options);
  if ((await quickRecipes(platform, cook)).length === 0) {
    await platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Omelette", rc_difficulty: "easy", rc_minutes: 10, rc_step: ["Beat the eggs", "Cook them"] } });
  }
  const lineage = createHttpApp({ platform });
  const app = new Hono();
  app.get("/quick", async (c) => c.json(await quickRecipes(platform, cook)));
  app.all("/api/*", (c) => lineage.fetch(c.req.raw));
  return app;
}
