import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import type { Store } from "../src/ports/store.port.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { baseBundle, FILES, folder, snapshot, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";
import example from "./fixtures/bundle-md-example.json" with { type: "json" };

const check = (bundle: unknown, store: Store = createMemoryStore()) => checkBundle(bundle, { store, readFile: folder(FILES) });

/** A bundle with one of each problem the checks know, and what they must say. */
function brokenBundle(): { bundle: RawBundle; expected: Record<string, string | RegExp> } {
  const b: RawBundle = baseBundle();
  const [ann, note, unnamed] = b.elements;
  const [person, noteStructure] = b.structures;
  b.accounts.roles.push({ id: "editor" });
  b.accounts.groups[0].roles = ["editor", "ghost"];
  b.accounts.users[1].groups = ["newsroom", "nowhere"];
  b.accounts.users[2].roles = ["reader", "boss"];
  b.accounts.users.push({ login: "bob" });
  b.enumerates.CATEGORIES[1].parentKey = "nope";
  b.enumerates.CATEGORIES.push({ key: "tech", label: "Tech again" });
  b.enumerates.LOOP = [{ key: "a", label: "A", parentKey: "b" }, { key: "b", label: "B", parentKey: "a" }];
  b.profiles[0].grants = { view: ["role:editor", "bob"], edit: ["role:ghost"], delete: ["user:zed"] };
  b.profiles.push({ name: "PRF_NOTE" });
  b.lifecycles[0].firstState = "start";
  b.lifecycles[0].states.push({ id: "draft" });
  b.lifecycles[0].transitions[0].to = "archived";
  b.lifecycles[0].transitions[0].grants = ["role:editor", "group:ghosts", "team:x"];
  b.lifecycles[0].transitions[0].askAttributes[1].enum = "NOPE";
  b.lifecycles[0].transitions.push({ id: "finish", from: "done", to: "draft" });
  person.profile = "PRF_GHOST";
  person.lifecycle = "WFL_GHOST";
  person.titleField = "pe_nom";
  person.fields[1].structure = "ANIMAL";
  person.fields.push({ id: "pe_name", type: "text", needed: true });
  noteStructure.icon = "../icons/note.png";
  noteStructure.fields[6].enum = "COLORS";
  delete noteStructure.fields[7].enum;
  noteStructure.fields[0].enum = "CATEGORIES";
  noteStructure.fields[1].fields = [];
  noteStructure.fields[14].fields.push({ id: "no_link_sub", type: "array" });
  ann.values.pe_age = 3;
  note.owner = "zed";
  Object.assign(note.values, {
    no_count: "three",
    no_score: "2,5",
    no_day: "2023-02-29",
    no_at: "yesterday",
    no_readers: ["P_ANN", "P_GHOST"],
    no_picture: { file: "/etc/passwd" },
    no_files: [{ file: "files/notes.txt" }, { file: "../secret.txt" }],
    no_secret: "shh",
    no_link_url: ["https://example.org"],
  });
  note.values.no_links[0].no_link_img = { file: "files/missing.png" };
  note.values.no_links[0].no_link_tags = ["robots"];
  note.values.no_links[1].no_link_nope = "x";
  note.values.no_links.push("not a row");
  unnamed.values.no_picture = { file: "files/notes.txt" };
  b.elements.push(
    { structure: "ANIMAL", values: {} },
    { structure: "PERSON", name: "P_NOBODY", values: {} },
    { structure: "PERSON", name: "P_ANN", values: { pe_name: "Ann again" } },
    structuredClone(unnamed),
    { structure: "PERSON", name: "P_BEN", values: { pe_name: "Ben", pe_friend: 42 } },
  );
  b.searchDomains[0].configs[0].fields.push({ field: "no_nope" }, { field: "no_links" });
  b.searchDomains[0].configs[0].files = [{ field: "no_title" }];
  b.searchDomains[0].configs.push({ structure: "ANIMAL" });
  b.searchDomains.push({ name: "notes", configs: [] });
  b.dashboards[0].roles = ["editor", "clerk"];
  b.dashboards.push({ slug: "notes-overview", uuid: "8f0c2a9e-1111-2222-3333-444455556667" });

  const expected: Record<string, string | RegExp> = {
    "$.accounts.roles[2].id": 'duplicate role "editor" (first at $.accounts.roles[0])',
    "$.accounts.groups[0].roles[1]": 'unknown role "ghost"',
    "$.accounts.users[1].groups[1]": 'unknown group "nowhere"',
    "$.accounts.users[2].roles[1]": 'unknown role "boss"',
    "$.accounts.users[3].login": 'duplicate login "bob" (first at $.accounts.users[2])',
    "$.enumerates.CATEGORIES[1].parentKey": 'enumerate "CATEGORIES" has no key "nope"',
    "$.enumerates.CATEGORIES[3].key": 'duplicate key "tech" (first at $.enumerates.CATEGORIES[0])',
    "$.enumerates.LOOP[0].parentKey": 'the parents of "a" make a cycle',
    "$.enumerates.LOOP[1].parentKey": 'the parents of "b" make a cycle',
    "$.profiles[0].grants.view[1]": '"bob" is not role:ID, group:ID, user:LOGIN, right:METHOD or owner',
    "$.profiles[0].grants.edit[0]": 'unknown role "ghost"',
    "$.profiles[0].grants.delete[0]": 'unknown user "zed"',
    "$.profiles[1].name": 'duplicate profile "PRF_NOTE" (first at $.profiles[0])',
    "$.lifecycles[0].states[2].id": 'duplicate state "draft" (first at $.lifecycles[0].states[0])',
    "$.lifecycles[0].firstState": '"start" is not a state of "WFL_NOTE"',
    "$.lifecycles[0].transitions[1].id": 'duplicate transition "finish" (first at $.lifecycles[0].transitions[0])',
    "$.lifecycles[0].transitions[0].to": '"archived" is not a state of "WFL_NOTE"',
    "$.lifecycles[0].transitions[0].grants[1]": 'unknown group "ghosts"',
    "$.lifecycles[0].transitions[0].grants[2]": '"team:x" is not role:ID, group:ID, user:LOGIN, right:METHOD',
    "$.lifecycles[0].transitions[0].askAttributes[1].enum": 'unknown enumerate "NOPE"',
    "$.structures[0].lifecycle": 'unknown lifecycle "WFL_GHOST"',
    "$.structures[0].profile": 'unknown profile "PRF_GHOST"',
    "$.structures[0].fields[1].structure": 'unknown structure "ANIMAL"',
    "$.structures[0].fields[2].id": 'duplicate field "pe_name" (first at $.structures[0].fields[0])',
    "$.structures[0].titleField": 'structure "PERSON" has no field "pe_nom"',
    "$.structures[1].icon": '"../icons/note.png" contains "..": files must be inside the bundle\'s folder',
    "$.structures[1].fields[0].enum": 'only enum fields take an enumerate (type is "text")',
    "$.structures[1].fields[1].fields": 'only array fields have columns (type is "htmltext")',
    "$.structures[1].fields[6].enum": 'unknown enumerate "COLORS"',
    "$.structures[1].fields[7]": 'an enum field needs "enum": the name of its enumerate',
    "$.structures[1].fields[14].fields[3].type": 'a column of the array "no_links" cannot be an array',
    "$.elements[0].values.pe_age": 'structure "PERSON" has no field "pe_age"',
    "$.elements[1].owner": 'unknown user "zed"',
    "$.elements[1].values.no_count": 'Smart field "no_count": "three" is not an integer',
    "$.elements[1].values.no_score": 'Smart field "no_score": "2,5" is not a number',
    "$.elements[1].values.no_day": 'Smart field "no_day": "2023-02-29" is not a date (YYYY-MM-DD)',
    "$.elements[1].values.no_at": /"yesterday" is not a timestamp/,
    "$.elements[1].values.no_readers": 'Smart field "no_readers": element "P_GHOST" not found',
    "$.elements[1].values.no_picture.file": '"/etc/passwd" is absolute: give a path relative to the bundle\'s folder',
    "$.elements[1].values.no_files[1].file": '"../secret.txt" contains "..": files must be inside the bundle\'s folder',
    "$.elements[1].values.no_link_url": 'field "no_link_url" is a column of the array "no_links": give it in the rows of "no_links"',
    "$.elements[1].values.no_links[0].no_link_img.file": 'file "files/missing.png" not found in the bundle\'s folder',
    "$.elements[1].values.no_links[0].no_link_tags": 'Smart field "no_link_tags": "robots" is not a key of enumerate "CATEGORIES"',
    "$.elements[1].values.no_links[1].no_link_nope": 'the array "no_links" has no column "no_link_nope"',
    "$.elements[1].values.no_links[2]": 'a row of "no_links" is an object keyed by column id',
    "$.elements[2].values.no_picture": 'Smart field "no_picture": file "notes.txt" is not an image',
    "$.elements[3].structure": 'unknown structure "ANIMAL"',
    "$.elements[4].values.pe_name": 'field "pe_name" is needed: give it a value',
    "$.elements[5].name": 'duplicate logical name "P_ANN" (first at $.elements[0])',
    "$.elements[6]": "same structure, owner and values as $.elements[2]: give one of them a name",
    "$.elements[6].values.no_picture": 'Smart field "no_picture": file "notes.txt" is not an image',
    "$.elements[7].values.pe_friend": 'Smart field "pe_friend": element "42" not found',
    "$.searchDomains[0].configs[0].fields[1].field": 'structure "NOTE" has no field "no_nope"',
    "$.searchDomains[0].configs[0].fields[2].field": '"no_links" is an array: index its columns',
    "$.searchDomains[0].configs[0].files[0].field": '"no_title" is not a file field',
    "$.searchDomains[0].configs[1].structure": 'unknown structure "ANIMAL"',
    "$.searchDomains[1].name": 'duplicate search domain "notes" (first at $.searchDomains[0])',
    "$.dashboards[0].roles[1]": 'unknown role "clerk"',
    "$.dashboards[1].slug": 'duplicate dashboard "notes-overview" (first at $.dashboards[0])',
  };
  return { bundle: b, expected };
}

describe("checkBundle", () => {
  it("finds no problem in a good bundle", async () => {
    const result = await check(baseBundle());
    expect(result.problems).toEqual([]);
    expect(result.bundle).toBeDefined();
  });

  it("reports every problem at once, each at its JSON path, and nothing else", async () => {
    const { bundle, expected } = brokenBundle();
    const { problems, bundle: checked } = await check(bundle);
    expect(checked).toBeUndefined();
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(Object.keys(byPath).sort()).toEqual(Object.keys(expected).sort());
    for (const [path, message] of Object.entries(expected)) {
      if (typeof message === "string") expect(byPath[path], path).toBe(message);
      else expect(byPath[path], path).toMatch(message);
    }
    expect(problems).toHaveLength(Object.keys(expected).length);
  });

  it("finds one problem in the example of bundle.md: its profile grants a user it does not define", async () => {
    const { problems } = await checkBundle(example, { store: createMemoryStore(), readFile: folder(FILES) });
    expect(problems).toEqual([{ path: "$.profiles[0].grants.view[1]", message: 'unknown user "bob"' }]);
  });

  it("reports the files of bundle.md's example when the folder does not have them", async () => {
    const { problems } = await checkBundle(example, { store: createMemoryStore(), readFile: folder({}) });
    expect(problems.map((p) => p.path)).toEqual([
      "$.profiles[0].grants.view[1]",
      "$.elements[0].values.ar_cover.file",
      "$.elements[0].values.ar_links[0].ar_link_img.file",
    ]);
  });

  it("takes an empty value for no value", async () => {
    const bundle: RawBundle = baseBundle();
    bundle.elements[0].values.pe_name = "";
    bundle.elements[1].values.no_title = null;
    expect((await check(bundle)).problems).toEqual([
      { path: "$.elements[0].values.pe_name", message: 'field "pe_name" is needed: give it a value' },
      { path: "$.elements[1].values.no_title", message: 'field "no_title" is needed: give it a value' },
    ]);
  });

  it("still knows an element whose entry has a wrong shape, so docid values naming it are not reported", async () => {
    const bundle: RawBundle = baseBundle();
    bundle.elements[0].colour = "blue";
    expect((await check(bundle)).problems).toEqual([{ path: "$.elements[0].colour", message: 'unknown key "colour"' }]);
  });

  it("knows the role admin without a declaration", async () => {
    const bundle = { accounts: { users: [{ login: "root", roles: ["admin"] }] }, profiles: [{ name: "P", grants: { view: ["role:admin"] } }] };
    expect((await check(bundle)).problems).toEqual([]);
  });

  it("resolves names against what earlier imports stored", async () => {
    const platform = testPlatform();
    await platform.bundles.import(baseBundle(), { readFile: folder(FILES) });
    const next = {
      accounts: { users: [{ login: "dan", groups: ["newsroom"], roles: ["reader"] }] },
      profiles: [{ name: "PRF_OTHER", grants: { view: ["user:alice", "group:newsroom", "role:editor"] } }],
      structures: [{ name: "MEMO", lifecycle: "WFL_NOTE", profile: "PRF_NOTE", fields: [
        { id: "me_note", type: "docid", structure: "NOTE" },
        { id: "me_category", type: "enum", enum: "CATEGORIES" },
      ] }],
      elements: [
        { structure: "MEMO", owner: "bob", values: { me_note: "N_ONE", me_category: "science" } },
        { structure: "PERSON", name: "P_CARL", values: { pe_name: "Carl", pe_friend: String((await platform.store.elements.latestByName("P_ANN"))?.initid) } },
      ],
    };
    expect((await check(next, platform.store)).problems).toEqual([]);
  });

  it("refuses a logical name that an element of another structure has", async () => {
    const platform = testPlatform();
    await platform.bundles.import(baseBundle(), { readFile: folder(FILES) });
    const next = { elements: [{ structure: "NOTE", name: "P_ANN", values: { no_title: "Not a person" } }] };
    expect((await check(next, platform.store)).problems).toEqual([
      { path: "$.elements[0].name", message: '"P_ANN" is an existing element of structure "PERSON", not "NOTE"' },
    ]);
  });

  it("does not ask again for a needed value an existing element has", async () => {
    const platform = testPlatform();
    await platform.bundles.import(baseBundle(), { readFile: folder(FILES) });
    const next = { elements: [{ structure: "PERSON", name: "P_ANN", values: { pe_friend: "P_ANN" } }] };
    expect((await check(next, platform.store)).problems).toEqual([]);
  });
});

describe("importBundle with problems", () => {
  it("throws BUNDLE0001 with every problem and writes nothing", async () => {
    const platform = testPlatform();
    await platform.bundles.import(baseBundle(), { readFile: folder(FILES) });
    const before = await snapshot(platform.store);
    const { bundle, expected } = brokenBundle();
    bundle.accounts.roles.push({ id: "brand-new" });
    bundle.elements.push({ structure: "PERSON", name: "P_NEW", values: { pe_name: "New" } });
    const error = await platform.bundles.import(bundle, { readFile: folder(FILES) }).catch((e: unknown) => e);
    expect(isLineageError(error)).toBe(true);
    if (!isLineageError(error)) return;
    expect(error.code).toBe("BUNDLE0001");
    expect(error.status).toBe(400);
    const problems = (error.data as { problems: { path: string }[] }).problems;
    expect(problems).toHaveLength(Object.keys(expected).length);
    expect(error.message).toMatch(/^Invalid bundle: \d+ problems, the first at \$\.accounts\.roles\[2\]\.id: duplicate role "editor"/);
    expect(await snapshot(platform.store)).toEqual(before);
    expect((await platform.store.accounts.roles()).map((r) => r.id)).not.toContain("brand-new");
  });

  it("hashes no password when the bundle is refused", async () => {
    const platform = testPlatform();
    const bundle: RawBundle = baseBundle();
    bundle.elements[0].structure = "ANIMAL";
    await expect(platform.bundles.import(bundle, { readFile: folder(FILES) })).rejects.toThrow(/Invalid bundle/);
    expect(platform.hasher.hashes).toBe(0);
    expect(await platform.store.accounts.byLogin("admin")).toBeUndefined();
  });
});
