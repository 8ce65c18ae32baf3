import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import type { Lifecycle } from "../src/lifecycle/lifecycle.ts";
import type { Profile } from "../src/access/profile.ts";
import { isReadable, listScope, readableFilter, revisionPermissions, revisionProfile } from "../src/access/element-profile.ts";
import { mayCreateUnder, principalOf, type Principal } from "../src/accounts/principal.ts";
import type { SmartStructure } from "../src/structures/smart-structure.ts";
import { folder, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";

import { createPlatformContext, systemClock, writeResult } from "./internals.ts";
const PROFILES: Profile[] = [
  { name: "PRF_NOTE", grants: { view: ["role:writer", "role:reader"], edit: ["role:writer"] } },
  { name: "PRF_VALIDATED", grants: { view: ["user:author"], edit: ["user:author"] } },
  { name: "PRF_PRIVATE", grants: { view: ["user:outsider"] } },
];
const LIFECYCLE: Lifecycle = {
  name: "WFL_NOTE", firstState: "draft", transitions: [],
  states: [{ id: "draft" }, { id: "validated", profile: "PRF_VALIDATED" }, { id: "archived" }],
};
const STRUCTURES: SmartStructure[] = [
  { id: 1, name: "NOTE", profile: "PRF_NOTE", lifecycle: "WFL_NOTE", fields: [] },
  { id: 2, name: "OPEN", fields: [] },
  { id: 3, name: "LOST", profile: "PRF_GONE", fields: [] },
];

/** Definitions as core looks them up, without a store. */
const definitions = {
  structure: (name: string) => STRUCTURES.find((s) => s.name === name),
  structures: () => STRUCTURES,
  lifecycle: (name: string) => (name === LIFECYCLE.name ? LIFECYCLE : undefined),
  profile: (name: string) => PROFILES.find((p) => p.name === name),
  profiles: () => PROFILES,
};

function principal(login: string, roles: string[] = []): Principal {
  return principalOf({ id: 9, login, displayName: login, passwordHash: null, roles, groups: [], locale: "en", rights: [], disabled: false }, []);
}

describe("the profile of a revision", () => {
  it("is the element's own profile, else its state's, else none (its structure's)", () => {
    expect(revisionProfile(definitions, { structure: "NOTE", state: "draft", ownProfile: null })).toBeNull();
    expect(revisionProfile(definitions, { structure: "NOTE", state: "validated", ownProfile: null })).toBe("PRF_VALIDATED");
    // The element's own profile wins over its state's.
    expect(revisionProfile(definitions, { structure: "NOTE", state: "validated", ownProfile: "PRF_PRIVATE" })).toBe("PRF_PRIVATE");
    expect(revisionProfile(definitions, { structure: "NOTE", state: "archived", ownProfile: "PRF_PRIVATE" })).toBe("PRF_PRIVATE");
    expect(revisionProfile(definitions, { structure: "OPEN", state: null, ownProfile: null })).toBeNull();
    // A state the lifecycle no longer has gives none.
    expect(revisionProfile(definitions, { structure: "NOTE", state: "gone", ownProfile: null })).toBeNull();
  });

  it("decides the permissions: its own profile's grants, else its structure's", () => {
    const reader = principal("reader", ["reader"]);
    const author = principal("author", ["writer"]);
    expect([...revisionPermissions(definitions, reader, { structure: "NOTE", profile: null })]).toEqual(["view"]);
    expect([...revisionPermissions(definitions, reader, { structure: "NOTE", profile: "PRF_VALIDATED" })]).toEqual([]);
    expect([...revisionPermissions(definitions, author, { structure: "NOTE", profile: "PRF_VALIDATED" })]).toEqual(["view", "edit"]);
    // No profile on the structure: open to everyone; a profile named by the revision but missing: closed but to admin.
    expect([...revisionPermissions(definitions, reader, { structure: "OPEN", profile: null })]).toEqual(["view", "edit", "delete"]);
    expect([...revisionPermissions(definitions, reader, { structure: "OPEN", profile: "PRF_GONE" })]).toEqual([]);
    expect([...revisionPermissions(definitions, principal("root", ["admin"]), { structure: "OPEN", profile: "PRF_GONE" })]).toHaveLength(3);
  });

  it("gives the filter a store lists by, which agrees with the permissions", () => {
    const reader = principal("reader", ["reader"]);
    const filter = readableFilter(definitions, reader)!;
    // LOST names a profile that does not exist: open, as its permissions are.
    expect(filter).toEqual({ structures: ["NOTE", "OPEN", "LOST"], profiles: ["PRF_NOTE"] });
    expect(readableFilter(definitions, principal("root", ["admin"]))).toBeUndefined();
    for (const revision of [
      { structure: "NOTE", profile: null }, { structure: "NOTE", profile: "PRF_VALIDATED" }, { structure: "OPEN", profile: "PRF_PRIVATE" },
      { structure: "OPEN", profile: "PRF_NOTE" }, { structure: "LOST", profile: null }, { structure: "OPEN", profile: "PRF_GONE" },
    ]) {
      expect(isReadable(filter, revision), JSON.stringify(revision)).toBe(revisionPermissions(definitions, reader, revision).has("view"));
    }
    expect(readableFilter(definitions, principal("outsider"))).toEqual({ structures: ["OPEN", "LOST"], profiles: ["PRF_PRIVATE"] });
  });
});

describe("the owner grant", () => {
  const owned: Profile[] = [
    { name: "PRF_MINE", grants: { view: ["owner"], edit: ["owner"], delete: ["owner"], create: ["right:POST"] } },
    { name: "PRF_SHARED", grants: { view: ["owner", "role:auditor"], edit: ["owner"] } },
  ];
  const structures: SmartStructure[] = [
    { id: 1, name: "BOX", profile: "PRF_MINE", fields: [] },
    { id: 2, name: "FILE", profile: "PRF_SHARED", fields: [] },
    { id: 3, name: "OPEN", fields: [] },
  ];
  const defs = {
    structure: (name: string) => structures.find((s) => s.name === name),
    structures: () => structures,
    lifecycle: () => undefined,
    profile: (name: string) => owned.find((p) => p.name === name),
    profiles: () => owned,
  };
  const someone = (id: number, roles: string[] = [], rights: ("GET" | "POST")[] = ["GET"]) => principalOf(
    { id, login: `u${id}`, displayName: `u${id}`, passwordHash: null, roles, groups: [], locale: "en", rights, disabled: false }, [],
  );

  it("grants its permissions to the element's owner, for that element only", () => {
    const alice = someone(5);
    expect([...revisionPermissions(defs, alice, { structure: "BOX", profile: null, owner: 5 })]).toEqual(["view", "edit", "delete"]);
    expect([...revisionPermissions(defs, alice, { structure: "BOX", profile: null, owner: 6 })]).toEqual([]);
    // No owner given (no element): the grant gives nothing.
    expect([...revisionPermissions(defs, alice, { structure: "BOX", profile: null })]).toEqual([]);
    // Under a profile of its own or its state's, as under its structure's.
    expect([...revisionPermissions(defs, alice, { structure: "OPEN", profile: "PRF_SHARED", owner: 5 })]).toEqual(["view", "edit"]);
    expect([...revisionPermissions(defs, someone(7, ["auditor"]), { structure: "FILE", profile: null, owner: 5 })]).toEqual(["view"]);
  });

  it("right:POST grants create to the accounts holding the global POST right, and owner grants it to anyone (they will own it)", () => {
    expect(mayCreateUnder(owned[0], someone(5, [], ["GET", "POST"]))).toBe(true);
    expect(mayCreateUnder(owned[0], someone(5, [], ["GET"]))).toBe(false);
    // No create grant: those who may edit, the owner being whoever creates it.
    expect(mayCreateUnder(owned[1], someone(5))).toBe(true);
  });

  it("puts in the readable filter what the caller may view only as the owner, which agrees with the permissions", () => {
    const alice = someone(5);
    const auditor = someone(7, ["auditor"]);
    expect(readableFilter(defs, alice)).toEqual({
      structures: ["OPEN"], profiles: [], owned: { owner: 5, structures: ["BOX", "FILE"], profiles: ["PRF_MINE", "PRF_SHARED"] },
    });
    // The auditor views PRF_SHARED whoever owns the element: it is no owner-only key for them.
    expect(readableFilter(defs, auditor)).toEqual({
      structures: ["FILE", "OPEN"], profiles: ["PRF_SHARED"], owned: { owner: 7, structures: ["BOX"], profiles: ["PRF_MINE"] },
    });
    for (const reader of [alice, auditor]) {
      const filter = readableFilter(defs, reader);
      for (const structure of ["BOX", "FILE", "OPEN"]) {
        for (const profile of [null, "PRF_MINE", "PRF_SHARED"]) {
          for (const owner of [5, 6, 7]) {
            const revision = { structure, profile, owner };
            expect(isReadable(filter, revision), JSON.stringify([reader.account.id, revision])).toBe(revisionPermissions(defs, reader, revision).has("view"));
          }
        }
      }
    }
  });

  it("is accepted in a bundle's profiles, as right:METHOD is anywhere a grant is", async () => {
    const bundle: RawBundle = {
      profiles: [
        { name: "PRF_MINE", grants: { view: ["owner"], edit: ["owner", "right:PUT"], create: ["right:POST", "right:PATCH"] } },
      ],
      lifecycles: [{ name: "WFL", firstState: "a", states: [{ id: "a" }], transitions: [{ id: "t", from: "a", to: "a", grants: ["owner", "right:GET"] }] }],
      fieldAccesses: [{ name: "FAL", layers: [{ grant: "owner", fields: {} }] }],
    };
    const { problems } = await checkBundle(bundle, { store: createMemoryStore(), readFile: folder({}) });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ["$.profiles[0].grants.create[1]", '"PATCH" is not a right: GET, PUT, POST, DELETE'],
      ["$.fieldAccesses[0].layers[0].grant", '"owner" grants only in profiles (it names each element\'s owner)'],
      ["$.lifecycles[0].transitions[0].grants[0]", '"owner" grants only in profiles (it names each element\'s owner)'],
    ]);
  });

  it("keeps a list to the structures viewable as the owner of which the caller owns some element, and names the profiles in use only", async () => {
    const store = (used: string[], mine: string[]) => ({
      profilesInUse: async (profiles: readonly string[]) => profiles.filter((p) => used.includes(p)),
      structuresOwned: async (owner: number, names: readonly string[]) => (owner === 5 ? names.filter((name) => mine.includes(name)) : []),
    });
    const filter = readableFilter(defs, someone(5))!;
    expect(await listScope(store([], ["BOX", "FILE"]), undefined, filter)).toEqual({
      structures: ["OPEN", "BOX", "FILE"], readable: { structures: ["OPEN"], profiles: [], owned: { owner: 5, structures: ["BOX", "FILE"], profiles: [] } },
    });
    expect(await listScope(store([], ["FILE"]), undefined, filter)).toEqual({
      structures: ["OPEN", "FILE"], readable: { structures: ["OPEN"], profiles: [], owned: { owner: 5, structures: ["FILE"], profiles: [] } },
    });
    // Owning nothing viewable as the owner only: the filter is as if there were no owner grant.
    expect(await listScope(store([], []), undefined, filter)).toEqual({ structures: ["OPEN"], readable: { structures: ["OPEN"], profiles: [] } });
    expect(await listScope(store(["PRF_SHARED"], []), ["BOX"], filter)).toEqual({
      structures: ["BOX"], readable: { structures: [], profiles: [], owned: { owner: 5, structures: [], profiles: ["PRF_SHARED"] } },
    });
    // A list of another structure asks nothing of the owned ones.
    const asked: string[][] = [];
    const counting = { ...store([], ["BOX"]), structuresOwned: async (_owner: number, names: readonly string[]) => (asked.push([...names]), [...names]) };
    expect(await listScope(counting, ["OPEN"], filter)).toEqual({ structures: ["OPEN"], readable: { structures: ["OPEN"], profiles: [] } });
    expect(await listScope(counting, ["OPEN", "FILE"], filter)).toMatchObject({ structures: ["OPEN", "FILE"] });
    expect(asked).toEqual([["FILE"]]);
  });
});

describe("the scope of a list", () => {
  const inUse = (used: string[]) => ({
    profilesInUse: async (profiles: readonly string[]) => profiles.filter((p) => used.includes(p)),
    structuresOwned: () => Promise.reject(new Error("not asked without an owner grant")),
  });
  const readable = { structures: ["NOTE", "OPEN"], profiles: ["PRF_NOTE", "PRF_VALIDATED"] };

  it("keeps to the structures the caller may view when no element is under a profile of its own they may view", async () => {
    expect(await listScope(inUse([]), undefined, readable)).toEqual({ structures: ["NOTE", "OPEN"], readable: { structures: ["NOTE", "OPEN"], profiles: [] } });
    // The filter names the list's structures only.
    expect(await listScope(inUse(["PRF_PRIVATE"]), ["OPEN", "LOST"], readable)).toEqual({ structures: ["OPEN"], readable: { structures: ["OPEN"], profiles: [] } });
  });

  it("lists every structure asked, filtered, when some element is under such a profile, naming only the profiles in use", async () => {
    expect(await listScope(inUse(["PRF_VALIDATED"]), undefined, readable)).toEqual({ readable: { structures: ["NOTE", "OPEN"], profiles: ["PRF_VALIDATED"] } });
    expect(await listScope(inUse(["PRF_VALIDATED"]), ["LOST"], readable)).toEqual({ structures: ["LOST"], readable: { structures: [], profiles: ["PRF_VALIDATED"] } });
  });

  it("asks nothing of the store for admin, or for a caller who may view no profile", async () => {
    const refuse = { profilesInUse: () => Promise.reject(new Error("not asked")), structuresOwned: () => Promise.reject(new Error("not asked")) };
    expect(await listScope(refuse, undefined, undefined)).toEqual({});
    expect(await listScope(refuse, ["NOTE"], undefined)).toEqual({ structures: ["NOTE"] });
    expect(await listScope(refuse, undefined, { structures: ["OPEN"], profiles: [] })).toEqual({ structures: ["OPEN"], readable: { structures: ["OPEN"], profiles: [] } });
  });
});

/** NOTE elements under a lifecycle whose `validated` state only their author may view, one with a profile of its own. */
function rightsBundle(): RawBundle {
  return {
    accounts: {
      roles: [{ id: "writer" }, { id: "reader" }],
      users: [
        { login: "admin", password: "admin-pw", roles: ["admin"] },
        { login: "author", password: "author-pw", roles: ["writer"] },
        { login: "reader", password: "reader-pw", roles: ["reader"] },
        { login: "outsider", password: "outsider-pw" },
      ],
    },
    profiles: PROFILES,
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
      { name: "LINK", titleField: "l_title", fields: [{ id: "l_title", type: "text" }, { id: "l_note", type: "docid", structure: "NOTE" }] },
    ],
    elements: [
      { structure: "NOTE", name: "NOTE_A", owner: "author", values: { n_title: "Note A" } },
      { structure: "NOTE", name: "NOTE_B", owner: "author", values: { n_title: "Note B" } },
      { structure: "NOTE", name: "NOTE_OWN", owner: "author", profile: "PRF_PRIVATE", values: { n_title: "Note own" } },
      { structure: "LINK", name: "LINK_A", values: { l_title: "Link", l_note: "NOTE_A" } },
    ],
  };
}

async function rightsPlatform() {
  const platform = testPlatform();
  await platform.bundles.import(rightsBundle(), { readFile: folder({}) });
  const as = async (login: string) => (await platform.accounts.principal(login))!;
  const titles = async (login: string) =>
    (await platform.elements.list(await as(login), { family: "NOTE", fields: "document.properties.title", orderBy: "title" })).documents.map((d) => d.properties?.title);
  return { platform, as, titles };
}

describe("rights per element and per state, through the use cases", () => {
  it("a write's answer names an element its author may not view, and shows nothing of it", async () => {
    const { platform, as } = await rightsPlatform();
    const own = (await platform.elements.read(await as("outsider"), "NOTE_OWN")).revision;
    // What the writes' answers render (answerWrite), for a revision each may or may not view.
    const answer = async (login: string) => writeResult(await createPlatformContext(platform.store, systemClock, platform.hasher, undefined).scope(await as(login)), own, 0);
    const shown = await answer("outsider");
    expect(shown.document.properties).toMatchObject({ title: "Note own" });
    const hidden = await answer("reader");
    expect(hidden.document).toEqual({ properties: { id: own.id, initid: own.initid }, uri: `/api/v2/smart-elements/${own.initid}.json` });
  });

  it("an element's own profile from the bundle decides who sees it, in lists and counts", async () => {
    const { platform, as, titles } = await rightsPlatform();
    expect(await titles("reader")).toEqual(["Note A", "Note B"]);
    expect(await titles("outsider")).toEqual(["Note own"]);
    expect(await titles("author")).toEqual(["Note A", "Note B"]);
    const own = (await platform.store.elements.latestByName("NOTE_OWN"))!;
    expect(own).toMatchObject({ ownProfile: "PRF_PRIVATE", profile: "PRF_PRIVATE" });
    await expect(platform.elements.read(await as("reader"), "NOTE_OWN")).rejects.toMatchObject({ code: "ROUTES0101" });
    // The system structures, listed to everyone, left out.
    const counts = async (login: string) =>
      (await platform.structures.list(await as(login))).filter((s) => !["DIR", "SEARCH", "REPORT"].includes(s.name)).map((s) => [s.name, s.alive]);
    expect(await counts("reader")).toEqual([["LINK", 1], ["NOTE", 2]]);
    // The outsider may not view NOTE through its profile, but one of its elements through its own.
    expect(await counts("outsider")).toEqual([["LINK", 1], ["NOTE", 1]]);
  });

  it("an element entering a state takes its profile, and leaving it for a state without one goes back to its structure's", async () => {
    const { platform, as, titles } = await rightsPlatform();
    const link = async (login: string) =>
      (await platform.elements.read(await as(login), "LINK_A")).data.document.attributes?.l_note as unknown as { displayValue: string; initid: number | null };
    expect((await link("reader")).displayValue).toBe("Note A");

    await platform.lifecycle.runTransition(await as("author"), "NOTE_A", "validate");
    const validated = (await platform.store.elements.latestByName("NOTE_A"))!;
    expect(validated).toMatchObject({ state: "validated", revision: 1, ownProfile: null, profile: "PRF_VALIDATED" });
    // The revision before keeps the profile it was written with.
    expect((await platform.store.elements.revisions(validated.initid))[1]).toMatchObject({ state: "draft", profile: null });

    expect(await titles("reader")).toEqual(["Note B"]);
    expect(await titles("author")).toEqual(["Note A", "Note B"]);
    await expect(platform.elements.read(await as("reader"), "NOTE_A")).rejects.toMatchObject({ code: "ROUTES0101" });
    expect((await platform.elements.read(await as("author"), "NOTE_A")).revision.id).toBe(validated.id);
    expect(await link("reader")).toMatchObject({ initid: null, displayValue: expect.not.stringContaining("Note A") });
    expect(await link("author")).toMatchObject({ initid: validated.initid, displayValue: "Note A" });

    await platform.lifecycle.runTransition(await as("author"), "NOTE_A", "archive");
    expect(await platform.store.elements.latestByName("NOTE_A")).toMatchObject({ state: "archived", profile: null });
    expect(await titles("reader")).toEqual(["Note A", "Note B"]);
  });

  it("an element's own profile outlasts its states', and a re-import changes it", async () => {
    const { platform, as, titles } = await rightsPlatform();
    await platform.lifecycle.runTransition(await as("admin"), "NOTE_OWN", "validate");
    expect(await platform.store.elements.latestByName("NOTE_OWN")).toMatchObject({ state: "validated", profile: "PRF_PRIVATE" });
    expect(await titles("outsider")).toEqual(["Note own"]);

    const bundle = rightsBundle();
    delete bundle.elements[2].profile;
    const report = await platform.bundles.import(bundle, { readFile: folder({}) });
    expect(report.elements.updated).toBe(1);
    // Without a profile of its own, the element is under its state's again.
    expect(await platform.store.elements.latestByName("NOTE_OWN")).toMatchObject({ ownProfile: null, profile: "PRF_VALIDATED" });
    expect(await titles("outsider")).toEqual([]);
    expect(await titles("author")).toEqual(["Note A", "Note B", "Note own"]);
  });
});

describe("the profiles a bundle's elements and states name", () => {
  it("must be declared in the bundle or stored", async () => {
    const bundle = rightsBundle();
    bundle.lifecycles[0].states[1].profile = "PRF_GHOST";
    bundle.elements[0].profile = "PRF_NOWHERE";
    const { problems } = await checkBundle(bundle, { store: createMemoryStore(), readFile: folder({}) });
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ["$.lifecycles[0].states[1].profile", 'unknown profile "PRF_GHOST"'],
      ["$.elements[0].profile", 'unknown profile "PRF_NOWHERE"'],
    ]);
    expect((await checkBundle(rightsBundle(), { store: createMemoryStore(), readFile: folder({}) })).problems).toEqual([]);
  });
});
