import { describe, expect, it } from "vitest";
import { ifMatchSatisfied, isLineageError } from "./internals.ts";
import { lifecyclePlatform } from "../src/testing/lifecycle-platform.ts";

describe("If-Match (RFC 9110, 13.1.1)", () => {
  const etag = '"MmExNmE4OTIyMGU1ZGIwNzY1NTYxNTQwODJiOTk4YTM="';

  it("matches *, the tag itself, a list naming it (commas inside quotes too), and the tag sent without its quotes", () => {
    for (const header of ["*", etag, ` ${etag} `, `"x", "y,z", ${etag}`, `"a",${etag}`, etag.slice(1, -1)]) expect(ifMatchSatisfied(header, etag)).toBe(true);
  });

  it("never matches a weak tag, another tag, or an empty or malformed header", () => {
    for (const header of [`W/${etag}`, '"other"', "", ",", `"${etag}"`, `${etag.slice(0, -2)}"`]) expect(ifMatchSatisfied(header, etag)).toBe(false);
  });
});

describe("writes with ifMatch", () => {
  it("refuse a stale ETag with CRUD0238 (412) and write nothing; every write changes the ETag, even on a stopped clock", async () => {
    const seed = await lifecyclePlatform();
    const admin = await seed.principal("admin");
    const read = () => seed.platform.elements.read(admin, "ART_HELLO");
    const first = await read();
    // The fixture's clock does not move: the second write happens "at the same millisecond" as the first.
    const updated = await seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "One" }, ifMatch: first.etag });
    const second = await read();
    expect(second.etag).not.toBe(first.etag);
    expect(updated.etag).toBe(second.etag);
    await seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Two" }, ifMatch: second.etag });
    expect((await read()).etag).not.toBe(second.etag);
    const refused = await seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Lost" }, ifMatch: second.etag }).catch((error: unknown) => error);
    expect(isLineageError(refused) && [refused.code, refused.status]).toEqual(["CRUD0238", 412]);
    expect((await read()).revision.values.ar_title).toBe("Two");
    const stale = (await read()).etag;
    await seed.platform.lifecycle.runTransition(admin, "ART_HELLO", "submit", { ifMatch: stale });
    const transition = await seed.platform.lifecycle.runTransition(admin, "ART_HELLO", "reject", { ifMatch: stale }).catch((error: unknown) => error);
    expect(isLineageError(transition) && transition.code).toBe("CRUD0238");
  });
});
