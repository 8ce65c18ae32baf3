import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Platform, type Store } from "@lineage/core";
import { startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";

// Issue 19, item 8, over a real server: titles made of several title fields as the original makes
// them (joined by spaces in the structure's field order), the original's "untitled" title in the
// writer's language when they are all empty, and the previous title kept when a PUT empties them.

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  await store.transaction(async (tx) => {
    await tx.catalog.saveProfile({ name: "PRF_CONTACT", grants: { view: ["role:admin", "user:alice"], edit: ["role:admin", "user:alice"], create: ["role:admin", "user:alice"] } });
    await tx.catalog.saveStructure({
      name: "CONTACT", title: { en: "Contact", fr: "Contact presse" }, profile: "PRF_CONTACT", titleFields: ["ct_last", "ct_first"],
      fields: [{ id: "ct_first", type: "text" }, { id: "ct_phone", type: "text" }, { id: "ct_last", type: "text" }],
    });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "alice", password: "alice-pw", locale: "fr" });
  const system = await platform.accounts.principalOf(admin);
  await platform.elements.create(system, { structure: "CONTACT", name: "CT_ADA", values: { ct_first: "Ada", ct_phone: "01", ct_last: "Lovelace" } });
  return withTwin({ platform, store, hasher });
}

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;

beforeAll(async () => {
  live = await startLiveServer(seed);
});

afterAll(async () => {
  await live.close();
});

const ADMIN: [string, string] = ["admin", "admin-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const COLLECTION = "/api/v2/smart-structures/CONTACT/smart-elements/";

async function titleOf(ref: string | number, as: [string, string] = ADMIN): Promise<string> {
  const answer = await live.api.call("GET", `/api/v2/smart-elements/${ref}`, { as });
  expect(answer.status).toBe(200);
  return answer.json.data.document.properties.title;
}

describe("item 8: titles from several fields", () => {
  it("joins the title fields' values by spaces in the structure's order, in the element, the list and the title order", async () => {
    expect(await titleOf("CT_ADA")).toBe("Ada Lovelace");
    const created = await live.api.call("POST", COLLECTION, { as: ADMIN, json: { document: { attributes: { ct_last: { value: "Hopper" }, ct_first: { value: "Grace" } } } } });
    expect(created.status).toBe(201);
    expect(created.json.data.document.properties.title).toBe("Grace Hopper");
    const list = await live.api.call("GET", `${COLLECTION}?orderBy=title`, { as: ADMIN });
    expect(list.json.data.documents.map((item: any) => item.properties.title)).toEqual(expect.arrayContaining(["Ada Lovelace", "Grace Hopper"]));
  });

  it("names an element created with every title field empty as the original does, in English and in French", async () => {
    const english = await live.api.call("POST", COLLECTION, { as: ADMIN, json: { document: { attributes: { ct_phone: { value: "02" } } } } });
    expect(english.status).toBe(201);
    const englishId = english.json.data.document.properties.initid;
    expect(english.json.data.document.properties.title).toBe(`untitle Contact ${englishId}`);
    expect(await titleOf(englishId)).toBe(`untitle Contact ${englishId}`);
    const french = await live.api.call("POST", COLLECTION, { as: ALICE, json: { document: { attributes: { ct_phone: { value: "03" } } } } });
    expect(french.status).toBe(201);
    const frenchId = french.json.data.document.properties.initid;
    // The title is written once, in the writer's language: every reader sees the same.
    expect(await titleOf(frenchId, ALICE)).toBe(`Contact presse sans titre ${frenchId}`);
    expect(await titleOf(frenchId, ADMIN)).toBe(`Contact presse sans titre ${frenchId}`);
  });

  it("recomputes the title on PUT and keeps the previous one when the PUT empties every title field", async () => {
    const put = (attributes: Record<string, unknown>) => live.api.call("PUT", "/api/v2/smart-elements/CT_ADA", { as: ALICE, json: { document: { attributes } } });
    expect((await put({ ct_first: { value: "Augusta Ada" } })).status).toBe(200);
    expect(await titleOf("CT_ADA")).toBe("Augusta Ada Lovelace");
    const emptied = await put({ ct_first: { value: "" }, ct_last: { value: null } });
    expect(emptied.status).toBe(200);
    expect(emptied.json.data.document.properties.title).toBe("Augusta Ada Lovelace");
    expect(emptied.json.data.document.attributes.ct_last).toEqual({ value: null, displayValue: null });
  });
});
