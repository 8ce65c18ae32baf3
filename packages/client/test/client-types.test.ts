import { describe, expect, expectTypeOf, it } from "vitest";
import type { Article, Author, CategoriesKey, LineageStructures } from "../../../examples/demo/lineage-types.ts";
import { readFrames } from "../src/event-frames.ts";
import { elementOf } from "../src/element.ts";
import type { Element, Filter, LifecycleState, LineageClient, ListedElement, Page } from "../src/index.ts";
import { writeBody } from "../src/write-body.ts";

// The client's types over the demo's generated types (examples/demo/lineage-types.ts): the type check
// (`tsc`, with these files) fails on a wrong field name or value type; the @ts-expect-error lines below
// must each be an error, or tsc reports them unused. And the translation of flat values, at run time.

/** Calls the type check reads and never runs. */
function typeChecks(client: LineageClient) {
  return async () => {
    const article = await client.elements.read<Article>("ART_HELLO");
    expectTypeOf(article).toEqualTypeOf<Element<Article>>();
    expectTypeOf(article.values.ar_title).toEqualTypeOf<string>();
    expectTypeOf(article.values.ar_lang).toEqualTypeOf<"en" | "fr" | null>();
    expectTypeOf(article.values.ar_tags).toEqualTypeOf<CategoriesKey[]>();
    expectTypeOf(article.values.ar_author).toEqualTypeOf<number | null>();
    expectTypeOf(article.values.ar_link_title).toEqualTypeOf<(string | null)[]>();
    expectTypeOf(article.display.ar_tags).toEqualTypeOf<(string | null)[]>();
    expectTypeOf(article.properties.state).toEqualTypeOf<{ readonly reference: "draft" | "review" | "published"; readonly stateLabel?: string; readonly displayValue?: string; readonly color?: string; readonly activity?: string | null } | undefined>();
    // @ts-expect-error: ARTICLE has no field ar_titel
    void article.values.ar_titel;

    await client.elements.update<Article>("ART_HELLO", { ar_title: "Bonjour" });
    await client.elements.update<Article>("ART_HELLO", { ar_tags: ["ai", "space"], ar_author: "AUTHOR_JANE", ar_cover: new Blob(["png"]) });
    // @ts-expect-error: a misspelt field
    await client.elements.update<Article>("ART_HELLO", { ar_titel: "Bonjour" });
    // @ts-expect-error: ar_words is a number
    await client.elements.update<Article>("ART_HELLO", { ar_words: "many" });
    // @ts-expect-error: "sport" is no key of CATEGORIES
    await client.elements.update<Article>("ART_HELLO", { ar_category: "sport" });
    // @ts-expect-error: ar_ref is read-only
    await client.elements.update<Article>("ART_HELLO", { ar_ref: "X" });
    // @ts-expect-error: ar_title takes no upload
    await client.elements.update<Article>("ART_HELLO", { ar_title: new Blob(["x"]) });

    await client.elements.create<Author>("AUTHOR", { au_name: "Ada" });
    // @ts-expect-error: au_name is needed
    await client.elements.create<Author>("AUTHOR", { au_email: "ada@example.org" });
    // @ts-expect-error: the structure's name is AUTHOR
    await client.elements.create<Author>("ARTICLE", { au_name: "Ada" });

    const page = await client.elements.list<Article>({ structure: "ARTICLE", fields: ["ar_title"], filter: { field: "ar_category", operator: "in", value: ["ai"] } });
    expectTypeOf(page).toEqualTypeOf<Page<ListedElement<Article>>>();
    expectTypeOf(page.items[0]!.values.ar_title).toEqualTypeOf<string | undefined>();
    expectTypeOf(page.items[0]!.values.ar_tags).toEqualTypeOf<CategoriesKey[] | undefined>();
    // @ts-expect-error: ARTICLE has no field ar_titel
    void page.items[0]!.values.ar_titel;
    // @ts-expect-error: ar_words is a number
    const listedWords: string | null | undefined = page.items[0]!.values.ar_words;
    void listedWords;
    const content = await client.folders.content<Article>("FLD_ASTRONOMY", { fields: ["ar_title"] });
    expectTypeOf(content.items[0]!.values.ar_title).toEqualTypeOf<string | undefined>();
    // @ts-expect-error: a folder's content of articles has no au_name
    void content.items[0]!.values.au_name;
    const results = await client.searches.run<Article>("SEARCH_DRAFTS");
    // @ts-expect-error: ar_lang takes a key of LANGUAGES
    const badLang: "de" | null | undefined = results.items[0]!.values.ar_lang;
    void badLang;
    const trashed = await client.trash.list<Article>();
    expectTypeOf(trashed.items[0]!.values.ar_words).toEqualTypeOf<number | null | undefined>();
    const byProperty: Filter<Article> = { logic: "or", filters: [{ field: "state", operator: "eq", value: "review" }, { field: "ar_words", operator: "gte", value: 100 }] };
    void byProperty;
    // @ts-expect-error: ar_words compares with numbers
    const badValue: Filter<Article> = { field: "ar_words", operator: "gt", value: "100" };
    // @ts-expect-error: no such field
    const badField: Filter<Article> = { field: "ar_wordz", operator: "isempty" };
    void [badValue, badField];

    expectTypeOf(await client.lifecycle.run<Article>("ART_HELLO", "submit")).toEqualTypeOf<LifecycleState<Article["state"], Article["transition"]>>();
    // @ts-expect-error: no transition "approve" in the article's lifecycle
    await client.lifecycle.run<Article>("ART_HELLO", "approve");
    // @ts-expect-error: no state "archived"
    await client.lifecycle.changeState<Article>("ART_HELLO", "archived");

    expectTypeOf<LineageStructures["ARTICLE"]>().toEqualTypeOf<Article>();
  };
}

describe("the client's types", () => {
  it("compile against the generated types (the checks are tsc's; this file holds them)", () => {
    expect(typeof typeChecks).toBe("function");
  });
});

describe("flat values, translated", () => {
  it("to the API's attributes: a value, a list, a list of lists", () => {
    expect(writeBody({ ar_title: "Bonjour", ar_tags: ["ai", "web"], multi_column: [["a"], []], ar_cover: null, skipped: undefined })).toEqual({
      json: { document: { attributes: {
        ar_title: { value: "Bonjour" }, ar_tags: [{ value: "ai" }, { value: "web" }], multi_column: [[{ value: "a" }], []], ar_cover: { value: null },
      } } },
    });
  });

  it("to a multipart form when a value is a Blob, lists as field[]", async () => {
    const { form } = writeBody({ ar_title: "Bonjour", ar_tags: ["ai", "web"], ar_words: 3, ar_cover: new File(["png"], "cover.png", { type: "image/png" }), ar_lang: null });
    expect(form).toBeInstanceOf(FormData);
    expect(form!.get("ar_title")).toBe("Bonjour");
    expect(form!.getAll("ar_tags[]")).toEqual(["ai", "web"]);
    expect(form!.get("ar_words")).toBe("3");
    expect(form!.get("ar_lang")).toBe("");
    const cover = form!.get("ar_cover") as File;
    expect([cover.name, cover.type, await cover.text()]).toEqual(["cover.png", "image/png", "png"]);
    expect(() => writeBody({ column: [["a"]], file: new Blob(["x"]) })).toThrow(/list of lists/);
  });

  it("from the API's attributes: values and display texts, per item and per row", () => {
    const element = elementOf<Article>({
      uri: "/api/v2/smart-elements/5.json",
      properties: { id: 5, initid: 5, title: "Hello", name: "ART_HELLO" },
      attributes: {
        ar_title: { value: "Hello", displayValue: "Hello" },
        ar_tags: [{ value: "tech", displayValue: "Technology" }],
        ar_link_title: [{ value: "Press", displayValue: "Press" }, { value: null, displayValue: null }],
      },
    }, "\"etag\"");
    expect(element.values).toEqual({ ar_title: "Hello", ar_tags: ["tech"], ar_link_title: ["Press", null] });
    expect(element.display).toEqual({ ar_title: "Hello", ar_tags: ["Technology"], ar_link_title: ["Press", null] });
    expect(element.etag).toBe("\"etag\"");
  });
});

describe("the event stream's frames", () => {
  it("are parsed across chunks and line endings, comments skipped, data lines joined", async () => {
    const chunks = [": keep-alive\n\nid: 1\nevent: element.created\nda", "ta: {\"seq\":1}\r\n\r", "\nretry: 2000\nid: 2\ndata: a\ndata: b\n\n", "id: 3\n"];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const frames = [];
    for await (const frame of readFrames(body)) frames.push(frame);
    expect(frames).toEqual([
      { id: "1", event: "element.created", data: "{\"seq\":1}" },
      { id: "2", retry: 2000, data: "a\nb" },
    ]);
  });
});
