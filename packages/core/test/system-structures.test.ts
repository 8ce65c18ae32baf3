import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { createMemoryStore, principalsOf } from "../src/testing/index.ts";
import { folder, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";
import { describeStructure } from "../src/structures/structure-description.ts";

// The system structures (queries-and-events.md, section 2): DIR, SEARCH and REPORT, present without any bundle,
// whose elements each owner alone may view, change and delete, and every account with the global POST right create.

const USERS: RawBundle = {
  accounts: {
    roles: [{ id: "auditor" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw" },
      { login: "bob", password: "bob-pw" },
      { login: "reader", password: "reader-pw", rights: ["GET"] },
    ],
  },
};

async function platformWith(bundle: RawBundle = USERS) {
  const platform = testPlatform();
  await platform.bundles.import(bundle, { readFile: folder({}) });
  return { platform, as: principalsOf(platform) };
}

/** The fields of a structure as the API describes them (family.structure): id, type, multiple. */
async function fieldsOf(name: string): Promise<[string, string, boolean][]> {
  const { platform } = await platformWith();
  const structure = (await platform.structures.definitions()).structure(name);
  expect(structure, name).toBeDefined();
  return Object.values(describeStructure(structure!, "en")).map((field) => [field.id, field.type, field.multiple]);
}

describe("the system structures", () => {
  it("are in every store without any bundle, with the contract's fields and types", async () => {
    expect(await fieldsOf("DIR")).toEqual([["ba_title", "text", false], ["fld_famids", "text", true]]);
    const search: [string, string, boolean][] = [
      ["ba_title", "text", false], ["se_famid", "text", false], ["se_filter", "longtext", false], ["se_orderby", "text", false], ["se_trash", "enum", false],
    ];
    expect(await fieldsOf("SEARCH")).toEqual(search);
    expect(await fieldsOf("REPORT")).toEqual([...search, ["rep_idcols", "text", true], ["rep_limit", "int", false]]);
    const { platform } = await platformWith();
    const definitions = await platform.structures.definitions();
    expect(definitions.structure("REPORT")?.ancestors).toEqual(["SEARCH"]);
    expect(definitions.structure("DIR")?.titleField).toBe("ba_title");
    expect(definitions.structure("REPORT")?.titleField).toBe("ba_title");
    expect(definitions.enumerate("SYSTEM_SEARCH_TRASH")?.items.map((item) => item.key)).toEqual(["no", "only", "also"]);
  });

  it("give their elements to their owner alone: view, edit and delete", async () => {
    const { platform, as } = await platformWith();
    const alice = await as("alice");
    const created = await platform.elements.createByApi(alice, "DIR", { values: { ba_title: "Alice's folder" } });
    const ref = String(created.revision.initid);
    expect(created.revision.owner).toBe(alice.account.id);
    expect((await platform.elements.read(alice, ref)).data.document.properties?.title).toBe("Alice's folder");
    expect([...(await platform.elements.permissions(alice, created.revision))]).toEqual(["view", "edit", "delete"]);
    const bob = await as("bob");
    expect([...(await platform.elements.permissions(bob, created.revision))]).toEqual([]);
    await expect(platform.elements.read(bob, ref)).rejects.toMatchObject({ code: "ROUTES0101" });
    await expect(platform.elements.update(bob, ref, { values: { ba_title: "Mine now" } })).rejects.toMatchObject({ code: "ROUTES0101" });
    await expect(platform.elements.delete(bob, ref)).rejects.toMatchObject({ code: "ROUTES0101" });
    await platform.elements.update(alice, ref, { values: { ba_title: "Renamed" } });
    await platform.elements.delete(alice, ref);
    expect((await platform.trash.read(alice, ref)).data.document.properties?.title).toBe("Renamed");
    // Admin may do anything, as with any profile.
    expect([...(await platform.elements.permissions(await as("admin"), created.revision))]).toEqual(["view", "edit", "delete"]);
  });

  it("may be created by every account with the global POST right, and by no other", async () => {
    const { platform, as } = await platformWith();
    for (const structure of ["DIR", "SEARCH", "REPORT"]) {
      expect(await platform.elements.mayCreate(await as("bob"), structure)).toBe(true);
      expect(await platform.elements.mayCreate(await as("reader"), structure)).toBe(false);
    }
    await expect(platform.elements.createByApi(await as("reader"), "SEARCH", { values: { ba_title: "No" } })).rejects.toMatchObject({ code: "API0204" });
  });

  it("give a new saved search se_trash no unless it says otherwise", async () => {
    const { platform, as } = await platformWith();
    const bob = await as("bob");
    const plain = await platform.elements.createByApi(bob, "SEARCH", { values: { ba_title: "Recent" } });
    expect(plain.revision.values.se_trash).toBe("no");
    const trash = await platform.elements.createByApi(bob, "REPORT", { values: { ba_title: "Bin", se_trash: "only", rep_limit: 20 } });
    expect(trash.revision.values).toMatchObject({ se_trash: "only", rep_limit: 20 });
    await expect(platform.elements.createByApi(bob, "SEARCH", { values: { se_trash: "sometimes" } })).rejects.toMatchObject({ code: "VALUE0001" });
  });

  it("list each caller's own elements to them, in lists of every structure and of theirs", async () => {
    const { platform, as } = await platformWith();
    await platform.elements.createByApi(await as("alice"), "DIR", { values: { ba_title: "Alice's" } });
    await platform.elements.createByApi(await as("bob"), "DIR", { values: { ba_title: "Bob's" } });
    await platform.elements.createByApi(await as("bob"), "REPORT", { values: { ba_title: "Bob's report" } });
    const titles = async (login: string, family?: string) =>
      (await platform.elements.list(await as(login), { family, fields: "document.properties.title", orderBy: "title" })).documents.map((d) => d.properties?.title);
    expect(await titles("alice")).toEqual(["Alice's"]);
    expect(await titles("bob")).toEqual(["Bob's", "Bob's report"]);
    expect(await titles("bob", "SEARCH")).toEqual(["Bob's report"]);
    expect(await titles("alice", "SEARCH")).toEqual([]);
    expect(await titles("admin", "DIR")).toEqual(["Alice's", "Bob's"]);
    expect(await titles("reader")).toEqual([]);
    // The structures' list shows them to everyone, with the caller's own counts.
    const counts = async (login: string) => Object.fromEntries((await platform.structures.list(await as(login))).map((s) => [s.name, s.alive]));
    expect(await counts("bob")).toEqual({ DIR: 1, SEARCH: 0, REPORT: 1 });
    expect(await counts("alice")).toEqual({ DIR: 1, SEARCH: 0, REPORT: 0 });
  });

  it("may be extended by a bundle, which may give elements of them and of its own", async () => {
    const bundle: RawBundle = {
      ...USERS,
      structures: [{ name: "PROJECT_DIR", extends: "DIR", title: "Project folder", fields: [{ id: "pd_code", type: "text" }] }],
      elements: [
        { structure: "DIR", name: "FLD_SHARED", owner: "alice", values: { ba_title: "Shared", fld_famids: ["PROJECT_DIR"] } },
        { structure: "PROJECT_DIR", name: "FLD_APOLLO", owner: "bob", values: { ba_title: "Apollo", pd_code: "AP" } },
        { structure: "REPORT", name: "REP_ALL", values: { ba_title: "Everything", rep_idcols: ["title", "owner"], rep_limit: 50 } },
      ],
    };
    const { platform, as } = await platformWith(bundle);
    const definitions = await platform.structures.definitions();
    expect(definitions.structure("PROJECT_DIR")).toMatchObject({ ancestors: ["DIR"], profile: "PRF_SYSTEM_COLLECTIONS", titleField: "ba_title" });
    expect(definitions.withDescendants("DIR")).toEqual(["DIR", "PROJECT_DIR"]);
    expect((await platform.elements.read(await as("bob"), "FLD_APOLLO")).revision.values).toMatchObject({ ba_title: "Apollo", pd_code: "AP" });
    await expect(platform.elements.read(await as("alice"), "FLD_APOLLO")).rejects.toMatchObject({ code: "ROUTES0101" });
    expect((await platform.elements.read(await as("admin"), "REP_ALL")).revision.values).toMatchObject({ se_trash: "no", rep_limit: 50 });
    // Importing it again changes nothing.
    const again = await platform.bundles.import(bundle, { readFile: folder({}) });
    expect(again.elements).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("cannot be given again by a bundle, nor their profile and enumerate", async () => {
    const bundle: RawBundle = {
      enumerates: { SYSTEM_SEARCH_TRASH: [{ key: "never", label: "Never" }] },
      profiles: [{ name: "PRF_SYSTEM_COLLECTIONS", grants: { view: ["owner"] } }],
      structures: [{ name: "DIR", fields: [{ id: "ba_title", type: "text" }] }, { name: "REPORT", fields: [] }],
    };
    const { problems } = await checkBundle(bundle, { store: createMemoryStore(), readFile: folder({}) });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ["$.enumerates.SYSTEM_SEARCH_TRASH", '"SYSTEM_SEARCH_TRASH" is an enumerate of the system structures: it cannot be given again'],
      ["$.profiles[0].name", '"PRF_SYSTEM_COLLECTIONS" is the system structures\' profile: it cannot be given again'],
      ["$.structures[0].name", '"DIR" is a system structure: extend it ("extends": "DIR") rather than give it again'],
      ["$.structures[1].name", '"REPORT" is a system structure: extend it ("extends": "REPORT") rather than give it again'],
    ]);
  });
});
