import { describe, expect, it } from "vitest";
import { grantsOwned, readableForm, readableKeys, type ReadableFilter } from "../src/index.ts";

// The form of a caller's filter decides the stores' SQL and which kept statement serves them: two
// filters of one form must bind alike, so every part the form names must be what the filter has.
describe("a caller's filter: its form and keys", () => {
  const owned = (profiles: string[], structures: string[]): ReadableFilter["owned"] => ({ owner: 7, profiles, structures });

  it("is owned only when the owner grant names a profile or a structure, the keys then holding the owner's", () => {
    const filter: ReadableFilter = { profiles: ["P1"], structures: [], owned: owned(["P2"], []) };
    expect(grantsOwned(filter)).toBe(true);
    expect(readableForm(filter)).toBe("owned");
    expect(readableKeys(filter)).toEqual(["p:P1", "o7:p:P2"]);
    // A grant of nothing gives no owner's keys: the form of the rest.
    const empty: ReadableFilter = { profiles: ["P1"], structures: [], owned: owned([], []) };
    expect(grantsOwned(empty)).toBe(false);
    expect(readableForm(empty)).toBe("profiles");
    expect(readableKeys(empty)).toEqual(["p:P1"]);
  });

  it("says which sets the rest has: profiles, structures or both; none viewable is an empty set of profiles; no filter is none", () => {
    expect(readableForm({ profiles: ["P1"], structures: [] })).toBe("profiles");
    expect(readableForm({ profiles: [], structures: ["S1"] })).toBe("structures");
    expect(readableForm({ profiles: ["P1"], structures: ["S1"] })).toBe("both");
    expect(readableForm({ profiles: [], structures: [] })).toBe("profiles");
    expect(readableForm(undefined)).toBe("none");
  });
});
