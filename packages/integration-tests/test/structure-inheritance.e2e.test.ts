import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Issue 22, item 1, over a real server: structures that extend others. A parent's collection
// lists and sorts its descendants' elements with its own, under each structure's profile; the
// family-checked routes take a descendant's element; fromid and fromname tell each element's
// structure, and a structure's parent; a search domain config on the parent covers its descendants.

const BUNDLE = {
  accounts: {
    roles: [{ id: "clerk" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "clara", password: "clara-pw", roles: ["clerk"] },
      { login: "bob", password: "bob-pw" },
    ],
  },
  profiles: [
    { name: "PRF_BASE", grants: { view: ["role:clerk"], edit: ["role:clerk"] } },
    { name: "PRF_OPEN", grants: { view: ["role:clerk", "user:bob"], edit: ["role:clerk"] } },
  ],
  lifecycles: [{ name: "WFL_DOC", firstState: "draft", states: [{ id: "draft" }, { id: "done" }], transitions: [{ id: "finish", from: "draft", to: "done" }] }],
  structures: [
    // The child comes first: a parent may stand anywhere in the bundle.
    { name: "DOC_CREDIT", extends: "DOC_INVOICE", profile: "PRF_OPEN", titleField: "cr_reason", fields: [{ id: "cr_reason", type: "text" }] },
    {
      name: "DOC_BASE", title: "Base", icon: "base.png", profile: "PRF_BASE", lifecycle: "WFL_DOC", titleFields: ["db_ref", "db_label"],
      fields: [{ id: "db_ref", type: "text", label: "Reference" }, { id: "db_label", type: "text" }],
    },
    { name: "DOC_INVOICE", extends: "DOC_BASE", fields: [{ id: "db_label", type: "text", label: "Customer", visibility: "R" }, { id: "inv_total", type: "money" }] },
  ],
  elements: [
    { structure: "DOC_BASE", name: "B_1", values: { db_ref: "B1", db_label: "zulu" } },
    { structure: "DOC_INVOICE", name: "I_1", values: { db_ref: "I1", db_label: "acme", inv_total: 10 } },
    { structure: "DOC_CREDIT", name: "C_1", values: { db_ref: "C1", db_label: "mike", cr_reason: "broken" } },
  ],
  searchDomains: [{ name: "docs", lang: "en", configs: [{ structure: "DOC_BASE", fields: [{ field: "db_label", weight: "A" }] }] }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
});

afterAll(async () => {
  await live.close();
});

const ADMIN: [string, string] = ["admin", "admin-pw"];
const PROPERTIES = "document.properties.title,document.properties.fromname,document.properties.fromid";

async function listed(path: string, as = ADMIN): Promise<[string, string][]> {
  const answer = await live.api.call("GET", path, { as });
  expect(answer.status).toBe(200);
  return answer.json.data.documents.map((item: any) => [item.properties.title, item.properties.fromname]);
}

async function structureIds(): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const name of ["DOC_BASE", "DOC_INVOICE", "DOC_CREDIT"]) {
    ids[name] = (await live.api.call("GET", `/api/v2/smart-structures/${name}?fields=document.properties.id`, { as: ADMIN })).json.data.document.properties.id;
  }
  return ids;
}

describe("item 1: structures that extend others", () => {
  it("lists the descendants' elements in the parent's collection, each with its own fromname and fromid", async () => {
    const ids = await structureIds();
    const answer = await live.api.call("GET", `/api/v2/smart-structures/DOC_BASE/smart-elements/?fields=${PROPERTIES}`, { as: ADMIN });
    expect(answer.status).toBe(200);
    expect(answer.json.data.documents.map((item: any) => item.properties)).toEqual([
      expect.objectContaining({ title: "B1 zulu", fromname: "DOC_BASE", fromid: ids.DOC_BASE }),
      expect.objectContaining({ title: "I1 acme", fromname: "DOC_INVOICE", fromid: ids.DOC_INVOICE }),
      expect.objectContaining({ title: "broken", fromname: "DOC_CREDIT", fromid: ids.DOC_CREDIT }),
    ]);
    expect(await listed(`/api/v2/smart-structures/DOC_INVOICE/smart-elements/?fields=${PROPERTIES}`)).toEqual([["I1 acme", "DOC_INVOICE"], ["broken", "DOC_CREDIT"]]);
  });

  it("sorts the descendants' elements together by an inherited field or a property, and pages them", async () => {
    const base = `/api/v2/smart-structures/DOC_BASE/smart-elements/?fields=${PROPERTIES}`;
    expect(await listed(`${base}&orderBy=db_label:desc`)).toEqual([["B1 zulu", "DOC_BASE"], ["broken", "DOC_CREDIT"], ["I1 acme", "DOC_INVOICE"]]);
    expect(await listed(`${base}&orderBy=db_label&slice=1&offset=1`)).toEqual([["broken", "DOC_CREDIT"]]);
    expect(await listed(`${base}&orderBy=fromname:desc`)).toEqual([["I1 acme", "DOC_INVOICE"], ["broken", "DOC_CREDIT"], ["B1 zulu", "DOC_BASE"]]);
    // A field of a descendant only does not sort the parent's collection, as in the original.
    const refused = await live.api.call("GET", "/api/v2/smart-structures/DOC_BASE/smart-elements/?orderBy=cr_reason", { as: ADMIN });
    expect([refused.status, refused.json.messages[0].code]).toEqual([400, "CRUD0506"]);
  });

  it("shows each caller the descendants' elements they may view, under each structure's inherited or own profile", async () => {
    const base = `/api/v2/smart-structures/DOC_BASE/smart-elements/?fields=${PROPERTIES}`;
    expect(await listed(base, ["clara", "clara-pw"])).toHaveLength(3);
    expect(await listed(base, ["bob", "bob-pw"])).toEqual([["broken", "DOC_CREDIT"]]);
    expect((await live.api.call("GET", "/api/v2/smart-elements/I_1", { as: ["bob", "bob-pw"] })).status).toBe(403);
  });

  it("takes a descendant's element in the family-checked routes, never an ancestor's in a descendant's", async () => {
    const credit = await live.api.call("GET", "/api/v2/smart-structures/DOC_BASE/smart-elements/C_1?fields=document.properties.state,document.properties.icon", { as: ADMIN });
    expect(credit.status).toBe(200);
    // The lifecycle and the icon are inherited from the grandparent.
    expect(credit.json.data.document.properties).toMatchObject({ state: { reference: "draft" }, icon: expect.stringContaining("base.png") });
    const base = await live.api.call("GET", "/api/v2/smart-structures/DOC_INVOICE/smart-elements/B_1", { as: ADMIN });
    expect([base.status, base.json.messages[0].code]).toEqual([404, "ROUTES0104"]);
  });

  it("describes a structure with its parent as fromid and fromname, and the fields it inherits", async () => {
    const ids = await structureIds();
    const fields = "document.properties.fromid,document.properties.fromname,family.structure";
    const credit = await live.api.call("GET", `/api/v2/smart-structures/DOC_CREDIT?fields=${fields}`, { as: ADMIN });
    expect(credit.status).toBe(200);
    expect(credit.json.data.document.properties).toMatchObject({ fromid: ids.DOC_INVOICE, fromname: "DOC_INVOICE" });
    const tree = credit.json.data.family.structure;
    expect(Object.keys(tree)).toEqual(["db_ref", "db_label", "inv_total", "cr_reason"]);
    expect(tree.db_label).toMatchObject({ label: "Customer", visibility: "R", logicalOrder: 2 });
    const invoice = await live.api.call("GET", `/api/v2/smart-structures/DOC_INVOICE?fields=${fields}`, { as: ADMIN });
    expect(invoice.json.data.document.properties).toMatchObject({ fromid: ids.DOC_BASE, fromname: "DOC_BASE" });
    const base = await live.api.call("GET", `/api/v2/smart-structures/DOC_BASE?fields=${fields}`, { as: ADMIN });
    expect(base.json.data.document.properties).toMatchObject({ fromid: 0, fromname: null });
    expect(base.json.data.family.structure.db_label).toMatchObject({ label: "db_label", visibility: "W" });
  });

  it("searches the descendants' elements in a domain configured on the parent", async () => {
    const search = async (q: string, as = ADMIN) => {
      const answer = await live.api.call("GET", `/api/v2/fullsearch/domains/docs/smart-elements/?q=${q}`, { as });
      expect(answer.status).toBe(200);
      return answer.json.data.documents.map((item: any) => item.properties.title);
    };
    expect(await search("mike")).toEqual(["broken"]);
    expect(await search("acme")).toEqual(["I1 acme"]);
    expect(await search("zulu")).toEqual(["B1 zulu"]);
    expect(await search("acme", ["bob", "bob-pw"])).toEqual([]);
    expect(await search("mike", ["bob", "bob-pw"])).toEqual(["broken"]);
  });
});
