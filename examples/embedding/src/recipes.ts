import { createPlatform, type Platform, type Principal, type Store } from "@lineage/core";

/**
 * The app's own catalog, defined in code instead of a bundle: recipes with a
 * difficulty enumerate and a list of steps (an array field).
 */
export function defineRecipes(store: Store): void {
  store.transaction(() => {
    store.catalog.saveEnumerate({
      name: "DIFFICULTY",
      items: [
        { key: "easy", label: { en: "Easy", fr: "Facile" } },
        { key: "hard", label: { en: "Hard", fr: "Difficile" } },
      ],
    });
    store.catalog.saveStructure({
      name: "RECIPE",
      title: { en: "Recipe", fr: "Recette" },
      titleField: "rc_name",
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
export function quickRecipes(platform: Platform, reader: Principal): string[] {
  const page = platform.listElements(reader, { family: "RECIPE", slice: "all", fields: "document.properties.title,document.attributes.rc_minutes" });
  return page.documents
    .filter((doc) => {
      const minutes = doc.attributes?.rc_minutes;
      return !Array.isArray(minutes) && typeof minutes?.value === "number" && minutes.value <= 20;
    })
    .map((doc) => String(doc.properties?.title));
}

/** Sets up the platform with the app's catalog and a cook account. */
export async function createRecipeBook(store: Store): Promise<{ platform: Platform; cook: Principal }> {
  const platform = createPlatform({ store });
  defineRecipes(store);
  const account = store.accounts.byLogin("cook") ?? (await platform.addUser({ login: "cook", password: "cook-pw", roles: ["admin"] }));
  return { platform, cook: platform.principalOfAccount(account) };
}
