import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Article, CategoriesKey } from "../../../examples/demo/lineage-types.ts";
import { systemPrincipal } from "../src/bundle/system-principal.ts";
import type { TypedAttributeValue } from "../src/elements/typed-element.ts";
import type { ElementList } from "../src/elements/read-elements.ts";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { BundleSchema } from "../src/bundle/bundle.schema.ts";
import { snapshot, testPlatform } from "../src/testing/bundle-helpers.ts";

// The one test that reads files: the demo bundle of examples/demo.
const demo = (path: string) => join(import.meta.dirname, "..", "..", "..", "examples", "demo", path);
const readFile = (path: string) => (existsSync(demo(path)) ? new Uint8Array(readFileSync(demo(path))) : undefined);
const bundle: unknown = JSON.parse(readFileSync(demo("bundle.json"), "utf8"));

/** Width and height of a PNG, from its IHDR chunk; undefined when the bytes are not a PNG. */
function pngSize(content: Uint8Array | undefined): { width: number; height: number } | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!content || !signature.every((byte, i) => content[i] === byte)) return undefined;
  const view = new DataView(content.buffer, content.byteOffset, content.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("the demo bundle (examples/demo)", () => {
  it("has the shape of BundleSchema and no problem", async () => {
    expect(v.safeParse(BundleSchema, bundle).success).toBe(true);
    const platform = testPlatform();
    expect((await checkBundle(bundle, { store: platform.store, readFile })).problems).toEqual([]);
  });

  it("has a real PNG icon of 32x32 or more for every structure, under images/", () => {
    const structures = (bundle as { structures: { icon?: string }[] }).structures;
    for (const { icon } of structures) {
      const size = pngSize(readFile(`images/${icon ?? ""}`));
      expect(size, icon).toBeDefined();
      expect(Math.min(size?.width ?? 0, size?.height ?? 0)).toBeGreaterThanOrEqual(32);
    }
  });

  it("imports cleanly, then again with nothing to change", async () => {
    const platform = testPlatform();
    const first = await platform.bundles.import(bundle, { readFile });
    expect(first).toMatchObject({
      roles: { created: 4 }, groups: { created: 1 }, users: { created: 4 }, structures: { created: 3 },
      lifecycles: { created: 1 }, elements: { created: 16, updated: 0 }, searchDomains: { created: 1 }, dashboards: { created: 1 },
    });
    const { store } = platform;
    const article = await store.elements.latestByName("ART_SPIRAL_GALAXIES");
    expect(article?.values.ar_author).toBe((await store.elements.latestByName("AUTHOR_SAKURA"))?.initid);
    expect(article?.state).toBe("draft");
    // Alice's folder holds the two articles on spiral galaxies.
    const folder = (await store.elements.latestByName("FLD_ASTRONOMY"))!;
    expect([folder.owner, await store.folders.members(folder.initid)]).toEqual([
      (await store.accounts.byLogin("alice"))?.id, [article!.initid, (await store.elements.latestByName("ART_GALAXIES_SPIRALES"))!.initid].sort((a, b) => a - b),
    ]);
    expect((await store.catalog.structure("CONTACT"))?.profile).toBeUndefined();
    expect((await store.accounts.byLogin("carol"))?.rights).toEqual(["GET"]);
    expect(await platform.accounts.authenticate("admin", "admin")).toMatchObject({ isAdmin: true });
    const before = await snapshot(store);
    const second = await platform.bundles.import(bundle, { readFile });
    expect(second.elements).toEqual({ created: 0, updated: 0, unchanged: 16, overwritten: 0 });
    expect(await snapshot(store)).toEqual(before);
  });

  it("tells of each edited element an import overwrites, and a dry run writes nothing", async () => {
    const platform = testPlatform();
    await platform.bundles.import(bundle, { readFile });
    const alice = await platform.accounts.principalOf((await platform.accounts.find("alice"))!);
    await platform.elements.update(alice, "ART_HELLO", { values: { ar_title: "Bonjour" } });
    const before = await snapshot(platform.store);
    const told: unknown[] = [];
    const dry = await platform.bundles.import(bundle, { readFile, dryRun: true, onOverwrite: (element) => told.push(element) });
    expect(dry.elements).toEqual({ created: 0, updated: 1, unchanged: 15, overwritten: 1 });
    expect(told).toEqual([{ initid: expect.any(Number), name: "ART_HELLO", title: "Bonjour" }]);
    expect(await snapshot(platform.store)).toEqual(before);
    await platform.bundles.import(bundle, { readFile });
    expect((await platform.store.elements.latestByName("ART_HELLO"))?.title).not.toBe("Bonjour");
  });
});

describe("the demo's generated types (examples/demo/lineage-types.ts) in the embedded API", () => {
  it("type a read's attributes, and the values of a create and an update", async () => {
    const platform = testPlatform();
    await platform.bundles.import(bundle, { readFile });
    const reading = await platform.elements.read<Article>(systemPrincipal(), "ART_HELLO");
    const attributes = reading.data.document.attributes!;
    expectTypeOf(attributes.ar_title!.value).toEqualTypeOf<string>();
    expectTypeOf(attributes.ar_tags!).toEqualTypeOf<TypedAttributeValue<CategoriesKey>[]>();
    expect(attributes.ar_title?.value).toMatch(/Hello/);
    expect(attributes.ar_tags?.map((tag) => tag.value)).toEqual(["tech", "web"]);
    // @ts-expect-error: ARTICLE has no field ar_titel
    expect(attributes.ar_titel).toBeUndefined();
    const created = await platform.elements.create<Article>(systemPrincipal(), { structure: "ARTICLE", values: { ar_title: "Typed", ar_tags: ["space"] } });
    await platform.elements.update<Article>(systemPrincipal(), String(created.initid), { values: { ar_words: 3 } });
    expect((await platform.elements.read<Article>(systemPrincipal(), String(created.initid))).data.document.attributes?.ar_words?.value).toBe(3);
    // @ts-expect-error: a create of ARTICLE needs ar_title
    await expect(platform.elements.create<Article>(systemPrincipal(), { structure: "ARTICLE", values: { ar_words: 1 } })).rejects.toThrow();
    // @ts-expect-error: ar_words is a number
    await expect(platform.elements.update<Article>(systemPrincipal(), String(created.initid), { values: { ar_words: "three" } })).rejects.toThrow();
  });

  it("type the elements of a list, of a folder's content and of the trash", async () => {
    const platform = testPlatform();
    await platform.bundles.import(bundle, { readFile });
    const list = await platform.elements.list<Article>(systemPrincipal(), { family: "ARTICLE", fields: "document.attributes.ar_title,document.attributes.ar_tags" });
    const first = list.documents[0]!.attributes!;
    expectTypeOf(first.ar_title!.value).toEqualTypeOf<string>();
    expectTypeOf(first.ar_tags!).toEqualTypeOf<TypedAttributeValue<CategoriesKey>[]>();
    expectTypeOf(list.requestParameters.slice).toEqualTypeOf<ElementList["requestParameters"]["slice"]>();
    expect(list.documents.map((document) => document.attributes?.ar_title?.value)).toContain("Hello, world: the newsroom goes online");
    // @ts-expect-error: ARTICLE has no field ar_titel
    expect(first.ar_titel).toBeUndefined();
    // @ts-expect-error: ar_words is a number, not a string
    const words: string | null | undefined = first.ar_words?.value;
    void words;
    // Without a structure type, the list's values stay as the API renders them.
    expectTypeOf((await platform.elements.list(systemPrincipal())).documents).toEqualTypeOf<ElementList["documents"]>();

    const content = await platform.folders.content<Article>(systemPrincipal(), "FLD_ASTRONOMY", { fields: "document.attributes.ar_title" });
    expectTypeOf(content.properties.title).toEqualTypeOf<string>();
    expect(content.documents.map((document) => document.attributes?.ar_title?.value)).toHaveLength(2);
    // @ts-expect-error: a folder's content of articles has no au_name either
    void content.documents[0]!.attributes!.au_name;

    await platform.elements.delete(systemPrincipal(), "ART_HELLO");
    const trash = await platform.trash.list<Article>(systemPrincipal(), { fields: "document.attributes.ar_words" });
    expectTypeOf(trash.documents[0]!.attributes!.ar_words!.value).toEqualTypeOf<number | null>();
    expect(trash.documents.map((document) => document.attributes?.ar_words?.value)).toHaveLength(1);
  });
});
