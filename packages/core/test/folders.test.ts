import { describe, expect, it } from "vitest";
import { LineageError } from "../src/errors/lineage-error.ts";
import { principalsOf } from "../src/testing/index.ts";
import { folder as filesOf, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";

// Folders (queries-and-events.md, section 2), through platform.folders on the memory store: the
// folders a caller may view, a folder's content as a list, and the elements put in and taken out,
// with the rights and refusals of the contract.

const BUNDLE: RawBundle = {
  accounts: {
    roles: [{ id: "team" }, { id: "writer" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team", "writer"] },
      { login: "bob", password: "bob-pw", roles: ["team"] },
      { login: "carol", password: "carol-pw" },
    ],
  },
  profiles: [
    { name: "PRF_ARTICLE", grants: { view: ["role:team"], edit: ["role:writer"] } },
    { name: "PRF_SECRET", grants: { view: ["user:bob"] } },
    // A team folder: the team views its content, its owner alone changes it.
    { name: "PRF_TEAM_DIR", grants: { view: ["role:team"], edit: ["owner"], delete: ["owner"] } },
  ],
  lifecycles: [{
    name: "WFL_ARTICLE", firstState: "draft",
    states: [{ id: "draft" }, { id: "secret", profile: "PRF_SECRET" }],
    transitions: [{ id: "hide", from: "draft", to: "secret" }, { id: "show", from: "secret", to: "draft" }],
  }],
  structures: [
    { name: "ARTICLE", profile: "PRF_ARTICLE", lifecycle: "WFL_ARTICLE", titleField: "ar_title",
      fields: [{ id: "ar_title", type: "text" }, { id: "ar_words", type: "int" }] },
    { name: "NEWS", extends: "ARTICLE", fields: [{ id: "nw_source", type: "text" }] },
    { name: "MEMO", titleField: "me_title", fields: [{ id: "me_title", type: "text" }] },
    { name: "TEAM_DIR", extends: "DIR", title: "Team folder", profile: "PRF_TEAM_DIR", fields: [] },
  ],
  elements: [
    { structure: "ARTICLE", name: "ART_ALPHA", values: { ar_title: "Alpha", ar_words: 300 } },
    { structure: "ARTICLE", name: "ART_BRAVO", values: { ar_title: "Bravo", ar_words: 100 } },
    { structure: "NEWS", name: "NEWS_CHARLIE", values: { ar_title: "Charlie", nw_source: "wire" } },
    { structure: "MEMO", name: "MEMO_DELTA", values: { me_title: "Delta" } },
    { structure: "TEAM_DIR", name: "FLD_TEAM", owner: "alice", values: { ba_title: "Team reading", fld_famids: ["ARTICLE"] } },
    { structure: "DIR", name: "FLD_BOB", owner: "bob", values: { ba_title: "Bob's own" } },
  ],
};

async function world() {
  const platform = testPlatform();
  await platform.bundles.import(BUNDLE, { readFile: filesOf({}) });
  const as = principalsOf(platform);
  const alice = await as("alice");
  // Alice's own folder, made through the API as any account with the POST right may.
  const own = await platform.elements.createByApi(alice, "DIR", { values: { ba_title: "Alice's reading" } });
  const mine = String(own.revision.initid);
  const titles = async (login: string, folder: string, options: Parameters<typeof platform.folders.content>[2] = {}) =>
    (await platform.folders.content(await as(login), folder, { fields: "document.properties.title", orderBy: "title", ...options })).documents
      .map((d) => d.properties?.title);
  return { platform, as, alice, mine, titles };
}

async function refusal(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LineageError) return [error.status, error.code];
    throw error;
  }
  throw new Error("not refused");
}

describe("a folder's content", () => {
  it("is what was put in, listed as /smart-elements/ lists, with the folder's initid and title", async () => {
    const { platform, alice, mine, titles } = await world();
    for (const element of ["ART_BRAVO", "MEMO_DELTA", "ART_ALPHA"]) {
      const added = await platform.folders.add(alice, mine, element);
      expect(added.changed).toBe(true);
    }
    expect(await titles("alice", mine)).toEqual(["Alpha", "Bravo", "Delta"]);
    const content = await platform.folders.content(alice, mine, { orderBy: "title:desc", slice: "2", count: "1", filter: '{"field":"title","operator":"neq","value":"Delta"}' });
    expect(content.properties).toEqual({ initid: Number(mine), title: "Alice's reading" });
    expect(content.uri).toBe(`/api/v2/folders/${mine}/smart-elements/`);
    expect(content.requestParameters).toMatchObject({ slice: 2, offset: 0, length: 2, orderBy: "title desc, id desc", total: 2 });
    expect(content.requestParameters.filter).toEqual({ logic: "and", filters: [{ field: "title", operator: "neq", value: "Delta" }] });
    expect(content.documents.map((d) => [d.properties?.title, d.uri])).toEqual([
      ["Bravo", expect.stringMatching(/^\/api\/v2\/smart-elements\/\d+\.json$/)],
      ["Alpha", expect.stringMatching(/^\/api\/v2\/smart-elements\/\d+\.json$/)],
    ]);
    // By logical name, the folder's URI names it.
    expect((await platform.folders.content(await (principalsOf(platform))("bob"), "FLD_TEAM")).uri).toBe("/api/v2/folders/FLD_TEAM/smart-elements/");
  });

  it("of an empty folder is an empty list, and a filter on an unknown field is still refused", async () => {
    const { platform, alice, mine } = await world();
    const content = await platform.folders.content(alice, mine, { count: "true" });
    expect([content.documents, content.requestParameters.total]).toEqual([[], 0]);
    expect(await refusal(platform.folders.content(alice, mine, { filter: '{"field":"nope","operator":"eq","value":1}' }))).toEqual([400, "FILTER0002"]);
    expect(await refusal(platform.folders.content(alice, mine, { filter: "{" }))).toEqual([400, "FILTER0001"]);
  });

  it("shows each element only to those who may view it, and alive elements only: its trash and its rights come and go", async () => {
    const { platform, as, titles } = await world();
    const alice = await as("alice");
    for (const element of ["ART_ALPHA", "ART_BRAVO", "NEWS_CHARLIE"]) await platform.folders.add(alice, "FLD_TEAM", element);
    expect(await titles("bob", "FLD_TEAM")).toEqual(["Alpha", "Bravo", "Charlie"]);
    // Bravo enters a state only bob may view: alice no longer sees it listed, bob does.
    await platform.lifecycle.runTransition(await as("admin"), "ART_BRAVO", "hide");
    expect(await titles("alice", "FLD_TEAM")).toEqual(["Alpha", "Charlie"]);
    expect(await titles("bob", "FLD_TEAM")).toEqual(["Alpha", "Bravo", "Charlie"]);
    // Charlie in the trash: listed by nobody, and back once restored, still in the folder.
    await platform.elements.delete(await as("admin"), "NEWS_CHARLIE");
    expect(await titles("bob", "FLD_TEAM")).toEqual(["Alpha", "Bravo"]);
    await platform.trash.restore(await as("admin"), "NEWS_CHARLIE", { document: { properties: { status: "alive" } } });
    expect(await titles("bob", "FLD_TEAM")).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect((await platform.folders.content(alice, "FLD_TEAM", { count: "1" })).requestParameters.total).toBe(2);
  });

  it("is refused for an unknown folder, an element that is no folder, one the caller may not view, and a folder in the trash", async () => {
    const { platform, as, alice, mine } = await world();
    expect(await refusal(platform.folders.content(alice, "NOPE"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.content(alice, "999999"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.content(alice, "ART_ALPHA"))).toEqual([404, "ROUTES0125"]);
    expect(await refusal(platform.folders.content(alice, "FLD_BOB"))).toEqual([403, "CRUD0201"]);
    expect(await refusal(platform.folders.content(await as("carol"), mine))).toEqual([403, "CRUD0201"]);
    await platform.elements.delete(alice, mine);
    expect(await refusal(platform.folders.content(alice, mine))).toEqual([404, "ROUTES0100"]);
    // Restored, it holds what it held.
    await platform.trash.restore(alice, mine, { document: { properties: { status: "alive" } } });
    expect((await platform.folders.content(alice, mine)).documents).toEqual([]);
  });
});

describe("putting an element in a folder", () => {
  it("needs the edit right on the folder and the view right on the element", async () => {
    const { platform, as, alice, mine } = await world();
    const bob = await as("bob");
    // Bob views the team folder but may not change it; he may not even view alice's own.
    expect(await refusal(platform.folders.add(bob, "FLD_TEAM", "ART_ALPHA"))).toEqual([403, "CRUD0201"]);
    expect(await refusal(platform.folders.add(bob, mine, "ART_ALPHA"))).toEqual([403, "CRUD0201"]);
    await platform.lifecycle.runTransition(await as("admin"), "ART_BRAVO", "hide");
    expect(await refusal(platform.folders.add(alice, mine, "ART_BRAVO"))).toEqual([403, "CRUD0201"]);
    expect(await refusal(platform.folders.add(alice, mine, "NOPE"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.add(alice, "NOPE", "ART_ALPHA"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.add(alice, "MEMO_DELTA", "ART_ALPHA"))).toEqual([404, "ROUTES0125"]);
    await platform.elements.delete(await as("admin"), "MEMO_DELTA");
    expect(await refusal(platform.folders.add(alice, mine, "MEMO_DELTA"))).toEqual([404, "ROUTES0100"]);
    expect(await platform.store.folders.members(Number(mine))).toEqual([]);
  });

  it("keeps to the structures the folder names (fld_famids), their descendants included", async () => {
    const { platform, alice } = await world();
    expect((await platform.folders.add(alice, "FLD_TEAM", "ART_ALPHA")).changed).toBe(true);
    expect((await platform.folders.add(alice, "FLD_TEAM", "NEWS_CHARLIE")).changed).toBe(true);
    const refused = await platform.folders.add(alice, "FLD_TEAM", "MEMO_DELTA").then(() => undefined, (error: unknown) => error as LineageError);
    if (!refused) throw new Error("not refused");
    expect([refused.status, refused.code, refused.userMessage]).toEqual([
      403, "CRUD0213", 'Cannot add "Delta" in "Team reading" folder, restriction set to add this kind of document',
    ]);
  });

  it("again changes nothing, and answers the element as the folder lists it", async () => {
    const { platform, alice, mine } = await world();
    const first = await platform.folders.add(alice, mine, "ART_ALPHA", { fields: "document.properties.title,document.attributes.ar_words" });
    expect(first.data.document).toEqual({
      uri: `/api/v2/smart-elements/${first.element.initid}.json`,
      properties: { id: first.element.id, title: "Alpha" },
      attributes: { ar_words: { value: 300, displayValue: "300" } },
    });
    const history = async (ref: string) => (await platform.revisions.history(alice, ref)).history[0]!.messages.map((m) => [m.code, m.comment]);
    const folderLines = await history(mine);
    const again = await platform.folders.add(alice, mine, String(first.element.initid));
    expect(again.changed).toBe(false);
    expect(again.data.document.properties).toMatchObject({ initid: first.element.initid, title: "Alpha" });
    expect(await history(mine)).toEqual(folderLines);
    expect(await platform.store.folders.members(Number(mine))).toEqual([first.element.initid]);
    // One line on each: the folder names the element, the element the folder.
    expect(folderLines[0]).toEqual(["MODCONTAIN", 'Document "Alpha" inserted']);
    expect((await history("ART_ALPHA"))[0]).toEqual(["MOVEADD", 'Document inserted in "Alice\'s reading" folder']);
    // A bad `fields` is refused before anything is written.
    expect(await refusal(platform.folders.add(alice, mine, "MEMO_DELTA", { fields: "document.nothing" }))).toEqual([400, "ROUTES0103"]);
    expect(await platform.store.folders.members(Number(mine))).toEqual([first.element.initid]);
  });

  it("writes nothing when its transaction does not commit", async () => {
    const { platform, alice, mine } = await world();
    const expired = { aborted: true };
    expect(await refusal(platform.folders.add(alice, mine, "ART_ALPHA", { deadline: expired }))).toEqual([503, "API0101"]);
    expect(await platform.store.folders.members(Number(mine))).toEqual([]);
    expect((await platform.revisions.history(alice, mine)).history[0]!.messages.map((m) => m.code)).not.toContain("MODCONTAIN");
  });
});

describe("a folder's content in the event log", () => {
  it("appends folder.added and folder.removed, the folder's events naming the element; none for a change that changes nothing or does not commit", async () => {
    const { platform, alice, mine } = await world();
    const admin = await principalsOf(platform)("admin");
    const start = (await platform.events.read(admin, {})).last;
    const added = await platform.folders.add(alice, mine, "ART_ALPHA");
    await platform.folders.add(alice, mine, "ART_ALPHA");
    await refusal(platform.folders.add(alice, mine, "MEMO_DELTA", { deadline: { aborted: true } }));
    await platform.folders.remove(alice, mine, "ART_ALPHA");
    const { events } = await platform.events.read(admin, { after: start });
    expect(events.map((e) => [e.type, e.initid, e.name, e.element, e.actor])).toEqual([
      ["folder.added", Number(mine), added.folder.name, added.element.initid, "alice"],
      ["folder.removed", Number(mine), added.folder.name, added.element.initid, "alice"],
    ]);
    expect(events.every((e) => e.changes === undefined && e.structure === "DIR")).toBe(true);
  });
});

describe("taking an element out of a folder", () => {
  it("removes it, with a history line on each, and refuses one the folder does not hold", async () => {
    const { platform, as, alice, mine, titles } = await world();
    await platform.folders.add(alice, mine, "ART_ALPHA");
    await platform.folders.add(alice, mine, "MEMO_DELTA");
    const removed = await platform.folders.remove(alice, mine, "ART_ALPHA");
    expect(removed.data.document.properties).toMatchObject({ title: "Alpha" });
    expect(await titles("alice", mine)).toEqual(["Delta"]);
    expect(await refusal(platform.folders.remove(alice, mine, "ART_ALPHA"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.remove(alice, mine, "NOPE"))).toEqual([404, "ROUTES0100"]);
    expect(await refusal(platform.folders.remove(await as("bob"), "FLD_TEAM", "ART_ALPHA"))).toEqual([403, "CRUD0201"]);
    const lines = (await platform.revisions.history(alice, mine)).history[0]!.messages.map((m) => [m.code, m.comment]);
    expect(lines[0]).toEqual(["MODCONTAIN", 'Document "Alpha" removed']);
  });

  it("takes out an element the caller may no longer view, or in the trash, answering its identifiers only", async () => {
    const { platform, as, alice, mine, titles } = await world();
    await platform.folders.add(alice, mine, "ART_BRAVO");
    await platform.folders.add(alice, mine, "MEMO_DELTA");
    await platform.lifecycle.runTransition(await as("admin"), "ART_BRAVO", "hide");
    const hidden = await platform.folders.remove(alice, mine, "ART_BRAVO");
    expect(hidden.data.document).toEqual({ properties: { id: hidden.element.id, initid: hidden.element.initid }, uri: `/api/v2/smart-elements/${hidden.element.initid}.json` });
    await platform.elements.delete(await as("admin"), "MEMO_DELTA");
    const trashed = await platform.folders.remove(alice, mine, "MEMO_DELTA");
    expect(trashed.data.document.uri).toBe(`/api/v2/trash/${trashed.element.initid}.json`);
    expect(await titles("alice", mine)).toEqual([]);
  });
});

describe("a bundle's folders", () => {
  const withContent = (content: Record<string, string[]>): RawBundle => ({
    ...BUNDLE,
    elements: BUNDLE.elements.map((entry: { name: string }) => (content[entry.name] ? { ...entry, content: content[entry.name] } : entry)),
  });
  const membersOf = async (platform: ReturnType<typeof testPlatform>, name: string) => {
    const folder = (await platform.store.elements.latestByName(name))!;
    const members = await platform.store.elements.latestMany(await platform.store.folders.members(folder.initid));
    return members.map((member) => member.name).sort();
  };

  it("hold their content, of the bundle's elements and of stored ones, and a re-import makes it exactly what the bundle names", async () => {
    const platform = testPlatform();
    await platform.bundles.import({ structures: [{ name: "OLD", titleField: "o_title", fields: [{ id: "o_title", type: "text" }] }],
      elements: [{ structure: "OLD", name: "OLD_ONE", values: { o_title: "Stored before" } }] }, { readFile: filesOf({}) });
    const first = await platform.bundles.import(withContent({ FLD_BOB: ["ART_ALPHA", "MEMO_DELTA", "OLD_ONE"], FLD_TEAM: ["NEWS_CHARLIE"] }), { readFile: filesOf({}) });
    expect(first.elements.created).toBe(6);
    expect(await membersOf(platform, "FLD_BOB")).toEqual(["ART_ALPHA", "MEMO_DELTA", "OLD_ONE"]);
    expect(await membersOf(platform, "FLD_TEAM")).toEqual(["NEWS_CHARLIE"]);
    const as = principalsOf(platform);
    expect((await platform.folders.content(await as("bob"), "FLD_BOB", { orderBy: "title", fields: "document.properties.title" })).documents
      .map((d) => d.properties?.title)).toEqual(["Alpha", "Delta", "Stored before"]);

    const again = await platform.bundles.import(withContent({ FLD_BOB: ["ART_ALPHA", "MEMO_DELTA", "OLD_ONE"], FLD_TEAM: ["NEWS_CHARLIE"] }), { readFile: filesOf({}) });
    expect(again.elements).toMatchObject({ created: 0, updated: 0, unchanged: 6, overwritten: 0 });

    // Alice puts an article in the team folder; a bundle naming other content takes the folder back to it.
    await platform.folders.add(await as("alice"), "FLD_TEAM", "ART_BRAVO");
    const changed = await platform.bundles.import(withContent({ FLD_BOB: ["MEMO_DELTA"], FLD_TEAM: ["NEWS_CHARLIE", "ART_ALPHA"] }), { readFile: filesOf({}) });
    expect(changed.elements).toMatchObject({ created: 0, updated: 2, unchanged: 4, overwritten: 1 });
    expect(await membersOf(platform, "FLD_BOB")).toEqual(["MEMO_DELTA"]);
    expect(await membersOf(platform, "FLD_TEAM")).toEqual(["ART_ALPHA", "NEWS_CHARLIE"]);
    // Without `content`, a bundle leaves a folder's content as it is.
    const without = await platform.bundles.import(BUNDLE, { readFile: filesOf({}) });
    expect(without.elements).toMatchObject({ updated: 0 });
    expect(await membersOf(platform, "FLD_BOB")).toEqual(["MEMO_DELTA"]);
  });

  it("is checked: a folder's only, of known elements, of the structures its fld_famids names (as given, else as stored)", async () => {
    const platform = testPlatform();
    const refused = await platform.bundles.import(
      withContent({ ART_ALPHA: ["ART_BRAVO"], FLD_TEAM: ["ART_BRAVO", "NEWS_CHARLIE", "MEMO_DELTA", "NOWHERE"] }), { readFile: filesOf({}) },
    ).then(() => undefined, (error: unknown) => error as LineageError);
    expect((refused?.data as { problems: { path: string; message: string }[] }).problems.map((p) => [p.path, p.message])).toEqual([
      ["$.elements[0].content", 'only folders hold content: "ARTICLE" is not DIR nor extends it'],
      ["$.elements[4].content[2]", '"MEMO_DELTA" is of structure "MEMO", which the folder may not hold (fld_famids: ARTICLE)'],
      ["$.elements[4].content[3]", 'unknown element "NOWHERE"'],
    ]);
    expect(await platform.store.elements.latestByName("FLD_TEAM")).toBeUndefined();
    await platform.bundles.import(BUNDLE, { readFile: filesOf({}) });
    // A later bundle giving the folder without values: its stored fld_famids hold.
    const later = { elements: [{ structure: "TEAM_DIR", name: "FLD_TEAM", owner: "alice", values: { ba_title: "Team reading" }, content: ["MEMO_DELTA"] }] };
    const problems = await platform.bundles.check(later, filesOf({})).then((check) => check.problems);
    expect(problems.map((p) => p.path)).toEqual(["$.elements[0].content[0]"]);
  });
});

describe("the folders", () => {
  it("are the elements of DIR and its descendants the caller may view, listed with filters and counts", async () => {
    const { platform, as } = await world();
    const list = async (login: string, options = {}) =>
      (await platform.folders.list(await as(login), { fields: "document.properties.title", orderBy: "title", ...options }));
    expect((await list("alice")).documents.map((d) => d.properties?.title)).toEqual(["Alice's reading", "Team reading"]);
    expect((await list("bob")).documents.map((d) => d.properties?.title)).toEqual(["Bob's own", "Team reading"]);
    expect((await list("carol")).documents).toEqual([]);
    expect((await list("admin")).documents.map((d) => d.properties?.title)).toEqual(["Alice's reading", "Bob's own", "Team reading"]);
    const filtered = await list("alice", { filter: '{"field":"fld_famids","operator":"eq","value":"ARTICLE"}', count: "1" });
    expect([filtered.documents.map((d) => d.properties?.title), filtered.requestParameters.total, filtered.uri]).toEqual([["Team reading"], 1, "/api/v2/folders/"]);
    // Their fields order them.
    expect((await list("admin", { orderBy: "ba_title:desc" })).documents.map((d) => d.properties?.title)).toEqual(["Team reading", "Bob's own", "Alice's reading"]);
  });
});
