import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@lineage/core";
import { createMemoryStore } from "@lineage/core/testing";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp } from "@lineage/adapter-http";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

/*
 * Every list order over a real server, as the in-memory store orders it (the store contract's
 * reference): each property and structure field, alone and followed by another key, for the whole
 * collection, a structure's and the trash, for an administrator and for a reader who may view one
 * structure of the three, page after page. On PostgreSQL the field orders read the sort keys the
 * database keeps as elements are written, so the elements are written through the platform here.
 */

const TITLES = ["Pear", "apple", "Pear", "Fig", "Élan", "kiwi", "Date", "Banana", "Fig", "Zest", "cherry", "Pear"];

async function seed(store: Store) {
  const seeded = await seededPlatform(store);
  const { platform, clock } = seeded;
  await store.transaction(async (tx) => {
    await tx.catalog.saveProfile({ name: "PRF_NOTE", grants: { view: ["role:editor"] } });
    await tx.catalog.saveStructure({ name: "NOTE", title: "Note", profile: "PRF_NOTE", fields: [{ id: "no_text", type: "text" }] });
  });
  const system = await seeded.principal("admin");
  for (const [i, title] of TITLES.entries()) {
    if (i % 4 === 0) clock.advance(1000);
    const structure = i % 3 === 2 ? "NOTE" : i % 4 === 1 ? "AUTHOR" : "ARTICLE";
    const values = structure === "NOTE" ? { no_text: title } : structure === "AUTHOR" ? { au_name: title } : {
      ar_title: title, ar_words: i % 5 === 0 ? null : (i * 7) % 4, ar_score: i / 4, ar_date: `2026-0${1 + (i % 3)}-1${i % 2}`,
      ar_category: ["tech", "food", "ai"][i % 3], ar_tags: i % 2 ? ["food"] : ["tech", "ai"], ar_author: i % 2 ? "AUTHOR_ADA" : null,
      ar_body: `<p>${title}</p>`, ar_stamp: `2026-03-0${1 + (i % 4)}T10:00:00`,
    };
    const created = await platform.elements.create(system, { structure, name: `E${i}`, values });
    if (i % 5 === 1) await platform.revisions.revise(system, created);
    if (i % 6 === 3) await platform.elements.update(system, created.name!, { values: structure === "ARTICLE" ? { ar_words: 99 } : {} });
    if (i % 7 === 6) await platform.elements.delete(system, created.name!);
  }
  return seeded;
}

type Seed = Awaited<ReturnType<typeof seed>>;
let live: LiveServer<Seed>;
let reference: ReturnType<typeof createHttpApp>;

beforeAll(async () => {
  live = await startLiveServer(seed);
  reference = createHttpApp({ platform: (await seed(createMemoryStore())).platform, onUnexpectedError: () => {} });
});
afterAll(async () => {
  await live.close();
});

// Readers may view articles and authors, not notes; carol (no role) authors only.
const USERS = { admin: ["admin", "admin-pw"], "a reader of two structures of three": ["bob", "bob-pw"], "a reader of one structure": ["carol", "carol-pw"] } as const;

/** The names of a list as the live server gives them page by page, and as the reference gives them in one page. */
async function namesOf(path: string, [login, password]: readonly [string, string]): Promise<[string[], string[]]> {
  const separator = path.includes("?") ? "&" : "?";
  const authorization = live.api.basic(login, password);
  const all = await reference.request(`${path}${separator}slice=all&fields=document.properties.name`, { headers: { authorization } });
  expect(all.status).toBe(200);
  const expected = ((await all.json()) as { data: { documents: { properties: { name: string } }[] } }).data.documents.map((d) => d.properties.name);
  const got: string[] = [];
  for (let offset = 0; offset <= expected.length; offset += 4) {
    const page = await live.api.call("GET", `${path}${separator}slice=4&offset=${offset}&fields=document.properties.name`, { as: [login, password] });
    expect(page.status).toBe(200);
    got.push(...(page.json.data.documents as { properties: { name: string } }[]).map((d) => d.properties.name));
  }
  return [got, expected];
}

const PROPERTY_ORDERS = [
  "title", "title:desc", "title,id", "name:desc", "initid:desc", "id", "revision:desc,title", "owner,mdate:desc", "state:desc",
  "fromname:desc,title", "fromid,cdate:desc", "cdate", "mdate:desc", "status:desc,title:desc", "mdate,id:asc",
];
const FIELD_ORDERS = [
  "ar_words", "ar_words:desc", "ar_score:desc", "ar_date", "ar_category:desc", "ar_title", "ar_title:desc,id", "ar_author:desc",
  "ar_stamp", "ar_body", "ar_tags:desc", "ar_words,title:desc",
];

describe.each(Object.entries(USERS))("lists for %s", (_, user) => {
  it.each(PROPERTY_ORDERS)("of every element ordered by %s, as the reference store orders them", async (order) => {
    const [got, expected] = await namesOf(`/api/v2/smart-elements/?orderBy=${order}`, user);
    expect(got).toEqual(expected);
    expect(got.length).toBeGreaterThan(0);
  });

  it.each(PROPERTY_ORDERS)("of the trash ordered by %s", async (order) => {
    const [got, expected] = await namesOf(`/api/v2/trash/?orderBy=${order}`, user);
    expect(got).toEqual(expected);
  });

  it.each([...PROPERTY_ORDERS, ...FIELD_ORDERS])("of the articles ordered by %s", async (order) => {
    const [got, expected] = await namesOf(`/api/v2/smart-structures/ARTICLE/smart-elements/?orderBy=${order}`, user);
    expect(got).toEqual(expected);
  });
});

it("shows each reader the elements of the structures they may view only", async () => {
  const [all] = await namesOf("/api/v2/smart-elements/?orderBy=title", USERS.admin);
  const [bob] = await namesOf("/api/v2/smart-elements/?orderBy=title", USERS["a reader of two structures of three"]);
  const [carol] = await namesOf("/api/v2/smart-elements/?orderBy=title", USERS["a reader of one structure"]);
  expect(all.length).toBeGreaterThan(bob.length);
  expect(bob.length).toBeGreaterThan(carol.length);
  expect(carol.length).toBeGreaterThan(1);
});
