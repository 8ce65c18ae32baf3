import { describe, expect, it } from "vitest";
import { seededPlatform } from "./fixture.ts";

describe("the ETag's rights component", () => {
  it("changes when the reader's effective rights on the element change, and only then", async () => {
    const { platform, store, principal } = await seededPlatform();
    const etagOf = async () => (await platform.readElement(principal("bob"), "ART_HELLO")).etag;
    const asReader = await etagOf();
    expect(await etagOf()).toBe(asReader);

    // Same groups, same account, same element: only the rights vector (view -> view+edit+delete) moves.
    store.accounts.saveAccount({ ...store.accounts.byLogin("bob")!, roles: ["reader", "editor"] });
    const asEditor = await etagOf();
    expect(asEditor).not.toBe(asReader);

    // Through a group's roles too: the profile's grants decide, not the role names themselves.
    store.accounts.saveAccount({ ...store.accounts.byLogin("bob")!, roles: ["reader"] });
    expect(await etagOf()).toBe(asReader);
    store.accounts.saveGroup({ id: "newsroom", roles: ["editor"] });
    store.accounts.saveGroup({ id: "readers", roles: [] });
    store.accounts.saveAccount({ ...store.accounts.byLogin("bob")!, groups: ["readers"] });
    const inEmptyGroup = await etagOf();
    store.accounts.saveGroup({ id: "readers", roles: ["editor"] });
    expect(await etagOf()).not.toBe(inEmptyGroup);
    expect(platform.scope(principal("bob")).rightsVector(store.elements.latestByName("ART_HELLO")!)).toBe("ved");
  });
});
