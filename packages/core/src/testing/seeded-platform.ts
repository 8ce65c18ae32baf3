import { createPlatform, createScryptPasswordHasher, type Clock, type Platform, type Principal, type RequestScope, type Store } from "../index.ts";
import { createPlatformContext } from "../scope/platform-context.ts";
import { createMemoryStore } from "./memory-store.ts";

/** A clock the test moves by hand. */
export function manualClock(start = "2026-01-01T10:00:00.000Z"): Clock & { advance(ms: number): void } {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms) => { now += ms; } };
}

/** The principal of a login on the platform; a test naming an unknown login is wrong. */
export function principalsOf(platform: Platform): (login: string) => Promise<Principal> {
  return async (login) => {
    const found = await platform.accounts.principal(login);
    if (!found) throw new Error(`no account ${login}`);
    return found;
  };
}

/** A platform over the given store (in memory by default) with a small catalog, four accounts and a few elements. */
export async function seededPlatform(store: Store = createMemoryStore()) {
  const clock = manualClock();
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform = createPlatform({ store, clock, hasher });
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "editor", label: "Editors" });
    await tx.accounts.saveRole({ id: "reader" });
    await tx.accounts.saveGroup({ id: "newsroom", roles: ["editor"] });
    await tx.catalog.saveEnumerate({
      name: "CATEGORIES",
      items: [
        { key: "tech", label: { en: "Technology", fr: "Technologie" } },
        { key: "ai", label: "Artificial intelligence", parentKey: "tech" },
        { key: "food", label: { en: "Food", fr: "Cuisine" } },
      ],
    });
    await tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor", "role:reader"], edit: ["role:editor"], delete: ["role:editor"] } });
    await tx.catalog.saveLifecycle({
      name: "WFL_ARTICLE", firstState: "draft",
      states: [{ id: "draft", label: { en: "Draft", fr: "Brouillon" }, activity: { en: "Writing" }, color: "#AAAAAA" }, { id: "published", label: "Published", color: "#00AA00" }],
      transitions: [{ id: "publish", from: "draft", to: "published", label: "Publish" }],
    });
    await tx.catalog.saveStructure({
      name: "AUTHOR", title: "Author", icon: "author.png", titleField: "au_name",
      fields: [{ id: "au_name", type: "text", needed: true }],
    });
    await tx.catalog.saveStructure({
      name: "ARTICLE", title: { en: "Article", fr: "Article" }, icon: "article.png", lifecycle: "WFL_ARTICLE", profile: "PRF_ARTICLE", titleField: "ar_title",
      fields: [
        { id: "ar_title", type: "text", label: { en: "Title", fr: "Titre" }, needed: true },
        { id: "ar_category", type: "enum", enum: "CATEGORIES" },
        { id: "ar_tags", type: "enum", enum: "CATEGORIES", multiple: true },
        { id: "ar_words", type: "int" },
        { id: "ar_score", type: "double" },
        { id: "ar_date", type: "date" },
        { id: "ar_stamp", type: "timestamp", visibility: "R" },
        { id: "ar_author", type: "docid", structure: "AUTHOR" },
        { id: "ar_body", type: "htmltext" },
        { id: "ar_secret", type: "text", visibility: "I" },
        { id: "ar_links", type: "array", fields: [{ id: "ar_link_url", type: "text" }, { id: "ar_link_rank", type: "int" }] },
      ],
    });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "alice", password: "alice-pw", groups: ["newsroom"], locale: "fr" });
  await platform.accounts.add({ login: "bob", password: "bob-pw", roles: ["reader"] });
  await platform.accounts.add({ login: "carol", password: "carol-pw", rights: ["GET"] });
  const system = await platform.accounts.principalOf(admin);
  const author = await platform.elements.create(system, { structure: "AUTHOR", name: "AUTHOR_ADA", values: { au_name: "Ada Lovelace" } });
  const hello = await platform.elements.create(system, {
    structure: "ARTICLE", name: "ART_HELLO",
    values: {
      ar_title: "Hello", ar_category: "tech", ar_tags: ["tech", "ai"], ar_words: 120, ar_score: 3.5, ar_date: "2026-03-04",
      ar_stamp: "2026-03-04T05:06:07", ar_author: "AUTHOR_ADA", ar_secret: "hidden",
      ar_link_url: ["https://example.org", "https://example.com"], ar_link_rank: [1, 2],
    },
  });
  clock.advance(1000);
  const zebra = await platform.elements.create(system, { structure: "ARTICLE", name: "ART_ZEBRA", values: { ar_title: "Zebra crossing" } });
  clock.advance(1000);
  const apple = await platform.elements.create(system, { structure: "ARTICLE", values: { ar_title: "Apple pie", ar_category: "food" } });
  /** Another node's platform: the same settings over another store on the same data, seeding nothing. */
  const twin = (other: Store): Platform => createPlatform({ store: other, clock, hasher });
  /** A request scope over the store (or another one, a counting store), as the façades open them. */
  const scope = (principal: Principal, over: Store = store): Promise<RequestScope> => createPlatformContext(over, clock, hasher, undefined).scope(principal);
  return { platform, store, hasher, clock, author, hello, zebra, apple, principal: principalsOf(platform), twin, scope };
}
