import { createPlatform, type Platform, type Principal, type Store } from "@lineage/core";
import { PUBLISHING, publishingHooks } from "./publishing.ts";

/**
 * The app's own catalog, defined in code instead of a bundle: recipes with a
 * difficulty enumerate, a list of steps (an array field) and a publishing lifecycle.
 */
export async function defineRecipes(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({
      name: "DIFFICULTY",
      items: [
        { key: "easy", label: { en: "Easy", fr: "Facile" } },
        { key: "hard", label: { en: "Hard", fr: "Difficile" } },
      ],
    });
    await tx.catalog.saveLifecycle(PUBLISHING);
    await tx.catalog.saveStructure({
      name: "RECIPE",
      title: { en: "Recipe", fr: "Recette" },
      titleField: "rc_name",
      lifecycle: PUBLISHING.name,
      fields: [
        { id: "rc_name", type: "text", needed: true, label: "Name" },
        { id: "rc_difficulty", type: "enum", enum: "DIFFICULTY" },
        { id: "rc_minutes", type: "int" },
        { id: "rc_steps", type: "array", fields: [{ id: "rc_step", type: "longtext" }] },
      ],
    });
  });
}

/** A rule of this app, written against the core only: a quick recipe takes at most 20 minutes. */
export async function quickRecipes(platform: Platform, reader: Principal): Promise<string[]> {
  // The store filters (on an index when the collection is large), as for an HTTP client's `filter`.
  const page = await platform.elements.list(reader, {
    family: "RECIPE", slice: "all", fields: "document.properties.title", filter: { field: "rc_minutes", operator: "lte", value: 20 },
  });
  return page.documents.map((doc) => String(doc.properties?.title));
}

export interface RecipeBookOptions {
  /** The kitchen service's base URL, which publishing calls; without it, publishing is refused (its hooks are not registered). */
  readonly kitchen?: string | undefined;
}

/** Sets up the platform with the app's catalog and a cook account. */
export async function createRecipeBook(store: Store, options: RecipeBookOptions = {}): Promise<{ platform: Platform; cook: Principal }> {
  const platform = createPlatform({ store, ...(options.kitchen ? { hooks: publishingHooks(options.kitchen) } : {}) });
  await defineRecipes(store);
  const account = (await platform.accounts.find("cook")) ?? (await platform.accounts.add({ login: "cook", password: "cook-pw", roles: ["admin"] }));
  return { platform, cook: await platform.accounts.principalOf(account) };
}
