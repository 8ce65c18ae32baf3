import { describe, expect, it } from "vitest";
import { LineageError } from "../src/errors/lineage-error.ts";
import { principalsOf } from "../src/testing/index.ts";
import { folder as filesOf, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";

// Locks on elements through platform.locks on the memory store: who holds one, what it refuses to
// the others (PUT, DELETE, transitions), and the original's codes for each refusal.

const BUNDLE: RawBundle = {
  accounts: {
    roles: [{ id: "team" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team"], displayName: "Alice" },
      { login: "bob", password: "bob-pw", roles: ["team"], displayName: "Bob" },
      { login: "carol", password: "carol-pw", roles: ["team"] },
    ],
  },
  profiles: [{ name: "PRF_NOTE", grants: { view: ["role:team"], edit: ["user:alice", "user:bob"], delete: ["user:alice", "user:bob"] } }],
  lifecycles: [{ name: "WFL_NOTE", firstState: "draft", states: [{ id: "draft" }, { id: "done" }], transitions: [{ id: "finish", from: "draft", to: "done" }] }],
  structures: [{ name: "NOTE", profile: "PRF_NOTE", lifecycle: "WFL_NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] }],
  elements: [{ structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha" } }],
};

async function world() {
  const platform = testPlatform();
  await platform.bundles.import(BUNDLE, { readFile: filesOf({}) });
  const as = principalsOf(platform);
  return { platform, alice: await as("alice"), bob: await as("bob"), carol: await as("carol"), admin: await as("admin") };
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

describe("platform.locks", () => {
  it("gives a permanent lock to its taker and refuses the others' changes while it is held", async () => {
    const { platform, alice, bob } = await world();
    expect(await platform.locks.read(bob, "NOTE_A", "all")).toEqual({ readOnly: false, uri: "/api/v2/smart-elements/NOTE_A/locks/", lock: null });
    const taken = await platform.locks.take(alice, "NOTE_A", "permanent");
    expect(taken.lock).toEqual({ lockedBy: { id: alice.account.id, title: "Alice" }, isMyLock: true, temporary: false, fixed: false });
    expect((await platform.locks.read(bob, "NOTE_A", "one")).readOnly).toBe(true);
    const values = { n_title: "Bob's" };
    expect(await refusal(platform.elements.update(bob, "NOTE_A", { values }))).toEqual([403, "CRUD0201"]);
    expect(await refusal(platform.elements.delete(bob, "NOTE_A"))).toEqual([400, "ROUTES0111"]);
    expect(await refusal(platform.lifecycle.runTransition(bob, "NOTE_A", "finish", {}))).toEqual([403, "WFL0300"]);
    expect(await refusal(platform.locks.take(bob, "NOTE_A", "temporary"))).toEqual([400, "CRUD0231"]);
    expect(await refusal(platform.locks.release(bob, "NOTE_A", "all"))).toEqual([400, "CRUD0232"]);
    expect((await platform.elements.update(alice, "NOTE_A", { values: { n_title: "Alpha 2" } })).revision.title).toBe("Alpha 2");
    const read = await platform.elements.read(bob, "NOTE_A", { fields: "document.properties.locked" });
    expect(read.data.document.properties?.locked).toBe(alice.account.id);
    expect((await platform.locks.release(alice, "NOTE_A", "permanent")).lock).toBeNull();
    expect((await platform.elements.update(bob, "NOTE_A", { values })).revision.title).toBe("Bob's");
  });

  it("keeps the two kinds apart: a temporary lock is taken only where there is none, and each route releases its own kind", async () => {
    const { platform, alice } = await world();
    expect((await platform.locks.take(alice, "NOTE_A", "temporary")).lock?.temporary).toBe(true);
    const read = await platform.elements.read(alice, "NOTE_A", { fields: "document.properties.locked" });
    expect(read.data.document.properties?.locked).toBe(-alice.account.id);
    expect(await refusal(platform.locks.release(alice, "NOTE_A", "permanent"))).toEqual([400, "CRUD0234"]);
    expect((await platform.locks.take(alice, "NOTE_A", "permanent")).lock?.temporary).toBe(false);
    expect((await platform.locks.take(alice, "NOTE_A", "temporary")).lock?.temporary).toBe(false);
    expect(await refusal(platform.locks.release(alice, "NOTE_A", "temporary"))).toEqual([400, "CRUD0233"]);
    expect((await platform.locks.release(alice, "NOTE_A", "all")).lock).toBeNull();
  });

  it("needs the edit right to lock; an administrator changes a locked element and releases its lock", async () => {
    const { platform, alice, carol, admin } = await world();
    expect(await refusal(platform.locks.take(carol, "NOTE_A", "permanent"))).toEqual([400, "CRUD0231"]);
    expect(await refusal(platform.locks.read(carol, "NOPE", "one"))).toEqual([404, "CRUD0200"]);
    await platform.locks.take(alice, "NOTE_A", "permanent");
    expect((await platform.elements.update(admin, "NOTE_A", { values: { n_title: "Admin's" } })).revision.title).toBe("Admin's");
    expect((await platform.locks.release(admin, "NOTE_A", "all")).lock).toBeNull();
  });
});
