import { describe, expect, it } from "vitest";
import { LineageError } from "./internals.ts";
import { searchBundle, searchWorld, seededPlatform } from "../src/testing/index.ts";

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; userMessage: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LineageError) return { code: error.code, message: error.message, userMessage: error.userMessage };
    throw error;
  }
  throw new Error("not refused");
}

describe("saved searches", () => {
  const titles = (list: { documents: { properties?: Record<string, unknown> }[] }) => list.documents.map((d) => d.properties?.title);

  it("runs a search's structure, filter and order, the request's filter added and its paging winning", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    await platform.elements.create(alice, {
      structure: "SEARCH", name: "SE_ARTICLES",
      values: { ba_title: "Articles with a category", se_famid: "ARTICLE", se_filter: JSON.stringify({ field: "ar_category", operator: "isnotempty" }), se_orderby: "title:desc" },
    });
    const all = await platform.searches.run(alice, "SE_ARTICLES", { count: true });
    expect(titles(all)).toEqual(["Hello", "Apple pie"]);
    expect(all.properties).toMatchObject({ title: "Articles with a category" });
    expect(all.requestParameters).toMatchObject({ orderBy: "title desc, id desc", total: 2 });
    const narrowed = await platform.searches.run(alice, "SE_ARTICLES", { filter: { field: "ar_category", operator: "eq", value: "food" }, orderBy: "title:asc" });
    expect(titles(narrowed)).toEqual(["Apple pie"]);
    expect(narrowed.requestParameters.filter).toEqual({
      logic: "and", filters: [{ logic: "and", filters: [{ field: "ar_category", operator: "isnotempty" }] }, { logic: "and", filters: [{ field: "ar_category", operator: "eq", value: "food" }] }],
    });
    expect(titles(await platform.searches.list(alice))).toEqual(["Articles with a category"]);
  });

  it("looks in the trash as se_trash says, both statuses merged in the list's order", async () => {
    const { platform, principal, zebra } = await seededPlatform();
    const admin = await principal("admin");
    await platform.elements.delete(admin, String(zebra.initid));
    for (const [name, trash] of [["SE_NO", "no"], ["SE_ONLY", "only"], ["SE_ALSO", "also"]] as const) {
      await platform.elements.create(admin, { structure: "SEARCH", name, values: { ba_title: name, se_famid: "ARTICLE", se_trash: trash } });
    }
    expect(titles(await platform.searches.run(admin, "SE_NO"))).toEqual(["Apple pie", "Hello"]);
    expect(titles(await platform.searches.run(admin, "SE_ONLY"))).toEqual(["Zebra crossing"]);
    const also = await platform.searches.run(admin, "SE_ALSO", { orderBy: "title:desc", slice: "2", offset: "1", count: true });
    expect(titles(also)).toEqual(["Hello", "Apple pie"]);
    expect(also.requestParameters.total).toBe(3);
  });

  it("gives a report's page size and columns as defaults", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    await platform.elements.create(admin, { structure: "REPORT", name: "REP_WORDS", values: { ba_title: "Words", se_famid: "ARTICLE", rep_idcols: ["ar_words", "state"], rep_limit: 2 } });
    const report = await platform.searches.run(admin, "REP_WORDS");
    expect(report.documents).toHaveLength(2);
    expect(report.documents[0]!.attributes).toHaveProperty("ar_words");
    expect(report.documents[0]!.properties).toHaveProperty("state");
    expect((await platform.searches.run(admin, "REP_WORDS", { slice: "3" })).documents).toHaveLength(3);
  });

  it("refuses what is not a search, a search the caller may not view, and a stored filter that no longer fits, naming the search", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    const bob = await principal("bob");
    await platform.elements.create(alice, { structure: "SEARCH", name: "SE_BROKEN", values: { ba_title: "Broken", se_famid: "ARTICLE", se_filter: '{"field":"ar_gone","operator":"isempty"}' } });
    expect((await refusal(platform.searches.run(alice, "NO_SUCH_SEARCH"))).code).toBe("ROUTES0100");
    expect((await refusal(platform.searches.run(alice, "ART_HELLO"))).code).toBe("ROUTES0126");
    expect((await refusal(platform.searches.run(bob, "SE_BROKEN"))).code).toBe("CRUD0201");
    const broken = await refusal(platform.searches.run(alice, "SE_BROKEN"));
    expect(broken.code).toBe("FILTER0002");
    expect(broken.message).toBe('Filter field "ar_gone" is not known for this list');
    expect(broken.userMessage).toContain('Saved search "SE_BROKEN" (Broken)');
  });
});

describe("search domains restricted to a collection", () => {
  /** The search bundle with a saved search of the news about volcanoes, and a domain restricted to it. */
  function volcanicBundle() {
    const bundle = searchBundle();
    return {
      ...bundle,
      elements: [
        ...(bundle.elements as object[]),
        { structure: "SEARCH", name: "SE_VOLCANO", values: { ba_title: "Volcanoes", se_famid: "NEWS", se_filter: '{"field":"nw_title","operator":"contains","value":"volcano"}' } },
      ],
      searchDomains: [
        ...(bundle.searchDomains as object[]),
        { name: "volcanic", lang: "en", configs: [{ structure: "NEWS", collection: "SE_VOLCANO", fields: [{ field: "nw_title" }, { field: "nw_summary" }] }] },
      ],
    };
  }
  const found = async (world: Awaited<ReturnType<typeof searchWorld>>, q: string) =>
    (await world.platform.fullsearch.search(await world.as("admin"), "volcanic", { q, slice: "all" })).documents.map((d) => d.properties?.title);

  it("index only what the saved search finds, following the elements' changes and the search's own", async () => {
    const world = await searchWorld({}, volcanicBundle());
    const admin = await world.as("admin");
    expect(await found(world, "lava or digest")).toEqual(["Volcano eruption"]);
    expect(await found(world, "")).toEqual(["Volcano eruption"]);
    // An element that comes to match is indexed; one that no longer matches leaves.
    await world.platform.elements.update(admin, "N_BODY", { values: { nw_title: "Weekly volcano digest" } });
    await world.platform.elements.update(admin, "N_TITLE", { values: { nw_title: "Eruption" } });
    expect(await found(world, "lava or digest")).toEqual(["Weekly volcano digest"]);
    // The search's own filter changed: the whole index follows.
    await world.platform.elements.update(admin, "SE_VOLCANO", { values: { se_filter: '{"field":"nw_title","operator":"startswith","value":"erup"}' } });
    expect(await found(world, "lava or digest")).toEqual(["Eruption"]);
    expect(await found(world, "")).toEqual(["Eruption"]);
  });

  it("index nothing for a collection no element names", async () => {
    const bundle = volcanicBundle();
    const world = await searchWorld({}, { ...bundle, elements: (bundle.elements as { name?: string }[]).filter((e) => e.name !== "SE_VOLCANO") });
    expect(await found(world, "lava")).toEqual([]);
    expect(await found(world, "")).toEqual([]);
  });
});
