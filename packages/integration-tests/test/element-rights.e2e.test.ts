import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Issue 22, item 5, over a real server: rights per element and per lifecycle state. A note entering
// `validated` takes that state's profile, which lets its author view it and the reader no longer;
// an element's own profile from the bundle decides alone. Element GET, lists, the console's counts,
// search results and a docid display value of another element show only what the caller may view.

const BUNDLE = {
  accounts: {
    roles: [{ id: "writer" }, { id: "reader" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "author", password: "author-pw", roles: ["writer"] },
      { login: "reader", password: "reader-pw", roles: ["reader"] },
      { login: "outsider", password: "outsider-pw" },
    ],
  },
  profiles: [
    { name: "PRF_NOTE", grants: { view: ["role:writer", "role:reader"], edit: ["role:writer"] } },
    { name: "PRF_VALIDATED", grants: { view: ["user:author"], edit: ["user:author"] } },
    { name: "PRF_PRIVATE", grants: { view: ["user:outsider"] } },
    { name: "PRF_LINK", grants: { view: ["role:writer", "role:reader"] } },
  ],
  lifecycles: [{
    name: "WFL_NOTE", firstState: "draft",
    states: [{ id: "draft" }, { id: "validated", profile: "PRF_VALIDATED" }, { id: "archived" }],
    transitions: [
      { id: "validate", from: "draft", to: "validated", grants: ["role:writer"] },
      { id: "archive", from: "validated", to: "archived", grants: ["user:author"] },
    ],
  }],
  structures: [
    { name: "NOTE", profile: "PRF_NOTE", lifecycle: "WFL_NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] },
    { name: "LINK", profile: "PRF_LINK", titleField: "l_title", fields: [{ id: "l_title", type: "text" }, { id: "l_note", type: "docid", structure: "NOTE" }] },
  ],
  elements: [
    { structure: "NOTE", name: "NOTE_A", owner: "author", values: { n_title: "Alpha memo" } },
    { structure: "NOTE", name: "NOTE_B", owner: "author", values: { n_title: "Bravo memo" } },
    { structure: "NOTE", name: "NOTE_OWN", owner: "author", profile: "PRF_PRIVATE", values: { n_title: "Charlie memo" } },
    { structure: "LINK", name: "LINK_A", values: { l_title: "Link to alpha", l_note: "NOTE_A" } },
  ],
  searchDomains: [{ name: "notes", lang: "en", configs: [{ structure: "NOTE", fields: [{ field: "n_title", weight: "A" }] }] }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
});

afterAll(async () => {
  await live.close();
});

const AUTHOR: [string, string] = ["author", "author-pw"];
const READER: [string, string] = ["reader", "reader-pw"];
const OUTSIDER: [string, string] = ["outsider", "outsider-pw"];

async function titles(path: string, as: [string, string]): Promise<string[]> {
  const separator = path.includes("?") ? "&" : "?";
  const answer = await live.api.call("GET", `${path}${separator}fields=document.properties.title&orderBy=title`, { as });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data.documents.map((item: any) => item.properties.title);
}

const found = (q: string, as: [string, string]) => titles(`/api/v2/fullsearch/domains/notes/smart-elements/?q=${encodeURIComponent(q)}`, as);

async function linkTarget(as: [string, string]): Promise<{ displayValue: string; initid: number | null }> {
  const answer = await live.api.call("GET", "/api/v2/smart-elements/LINK_A.json", { as });
  expect(answer.status).toBe(200);
  return answer.json.data.document.attributes.l_note;
}

/** The alive count the console's structures page shows for a structure. */
async function consoleCount(structure: string, as: [string, string]): Promise<number | undefined> {
  const answer = await fetch(`${live.url}/console/structures`, { headers: { authorization: live.api.basic(...as) } });
  expect(answer.status).toBe(200);
  const row = new RegExp(`<code>${structure}</code></td><td class="number">(\\d+)</td>`).exec(await answer.text());
  return row ? Number(row[1]) : undefined;
}

describe("item 5: rights per element and per lifecycle state", () => {
  it("an element's own profile decides who may view it, in GET, lists, search and counts", async () => {
    expect((await live.api.call("GET", "/api/v2/smart-elements/NOTE_OWN.json", { as: OUTSIDER })).status).toBe(200);
    const refused = await live.api.call("GET", "/api/v2/smart-elements/NOTE_OWN.json", { as: READER });
    expect([refused.status, refused.json.messages[0].code]).toEqual([403, "ROUTES0101"]);
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/", OUTSIDER)).toEqual(["Charlie memo"]);
    expect(await titles("/api/v2/smart-elements/", OUTSIDER)).toEqual(["Charlie memo"]);
    expect(await found("memo", OUTSIDER)).toEqual(["Charlie memo"]);
    expect(await consoleCount("NOTE", OUTSIDER)).toBe(1);
  });

  it("a note entering `validated` is hidden from the reader while its author still sees it, and shown again once it leaves", async () => {
    const before = await linkTarget(READER);
    expect(before.displayValue).toBe("Alpha memo");
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/", READER)).toEqual(["Alpha memo", "Bravo memo"]);
    expect(await consoleCount("NOTE", READER)).toBe(2);

    const validate = await live.api.call("POST", "/api/v2/smart-elements/NOTE_A/workflows/transitions/validate", { as: AUTHOR, json: {} });
    expect(validate.status, validate.text).toBe(200);

    // Element GET: the author may, the reader may not; the element tells the profile it is under.
    const mine = await live.api.call("GET", "/api/v2/smart-elements/NOTE_A.json?fields=document.properties.state,document.properties.profid", { as: AUTHOR });
    expect(mine.status).toBe(200);
    expect(mine.json.data.document.properties).toMatchObject({ state: { reference: "validated" }, profid: "PRF_VALIDATED" });
    const refused = await live.api.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: READER });
    expect([refused.status, refused.json.messages[0].code]).toEqual([403, "ROUTES0101"]);
    // Its revisions too: the lineage is under the profile of its latest revision.
    expect((await live.api.call("GET", "/api/v2/smart-elements/NOTE_A/revisions/", { as: READER })).status).toBe(403);
    // Lists, of the structure and of every element.
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/", AUTHOR)).toEqual(["Alpha memo", "Bravo memo"]);
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/", READER)).toEqual(["Bravo memo"]);
    expect(await titles("/api/v2/smart-elements/", READER)).toEqual(["Bravo memo", "Link to alpha"]);
    // A page past the hidden one holds what follows it.
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/?slice=1&offset=1", AUTHOR)).toEqual(["Bravo memo"]);
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/?slice=1&offset=1", READER)).toEqual([]);
    // The counts of the console.
    expect(await consoleCount("NOTE", READER)).toBe(1);
    expect(await consoleCount("NOTE", AUTHOR)).toBe(2);
    // Search results, with a term and without.
    expect(await found("memo", AUTHOR)).toEqual(["Alpha memo", "Bravo memo"]);
    expect(await found("memo", READER)).toEqual(["Bravo memo"]);
    expect(await found("alpha", READER)).toEqual([]);
    expect(await titles("/api/v2/fullsearch/domains/notes/smart-elements/", READER)).toEqual(["Bravo memo"]);
    // The docid value of another element that names it.
    const hidden = await linkTarget(READER);
    expect(hidden.initid).toBeNull();
    expect(hidden.displayValue).not.toBe("Alpha memo");
    expect(await linkTarget(AUTHOR)).toMatchObject({ displayValue: "Alpha memo", initid: before.initid });

    const archive = await live.api.call("POST", "/api/v2/smart-elements/NOTE_A/workflows/transitions/archive", { as: AUTHOR, json: {} });
    expect(archive.status, archive.text).toBe(200);
    expect((await live.api.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: READER })).status).toBe(200);
    expect(await titles("/api/v2/smart-structures/NOTE/smart-elements/", READER)).toEqual(["Alpha memo", "Bravo memo"]);
    expect(await found("memo", READER)).toEqual(["Alpha memo", "Bravo memo"]);
    expect((await linkTarget(READER)).displayValue).toBe("Alpha memo");
  });
});
