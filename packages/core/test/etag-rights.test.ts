import { describe, expect, it } from "vitest";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

describe("the ETag's rights component", () => {
  it("changes when the reader's effective rights on the element change, and only then", async () => {
    const { platform, store, principal, scope: scopeOf } = await seededPlatform();
    const etagOf = async () => (await platform.elements.read(await principal("bob"), "ART_HELLO")).etag;
    const bobAccount = async () => (await store.accounts.byLogin("bob"))!;
    const asReader = await etagOf();
    expect(await etagOf()).toBe(asReader);

    // Same groups, same account, same element: only the rights vector (view -> view+edit+delete) moves.
    await store.accounts.saveAccount({ ...(await bobAccount()), roles: ["reader", "editor"] });
    const asEditor = await etagOf();
    expect(asEditor).not.toBe(asReader);

    // Through a group's roles too: the profile's grants decide, not the role names themselves.
    await store.accounts.saveAccount({ ...(await bobAccount()), roles: ["reader"] });
    expect(await etagOf()).toBe(asReader);
    await store.accounts.saveGroup({ id: "newsroom", roles: ["editor"] });
    await store.accounts.saveGroup({ id: "readers", roles: [] });
    await store.accounts.saveAccount({ ...(await bobAccount()), groups: ["readers"] });
    const inEmptyGroup = await etagOf();
    await store.accounts.saveGroup({ id: "readers", roles: ["editor"] });
    expect(await etagOf()).not.toBe(inEmptyGroup);
    const scope = await scopeOf(await principal("bob"));
    expect(scope.rightsVector((await store.elements.latestByName("ART_HELLO"))!)).toBe("ved");
  });
});
