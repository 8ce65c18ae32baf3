import { describe, expect, it } from "vitest";
import { seededPlatform } from "../src/testing/seeded-platform.ts";
import { elementsOfXml, type XmlNode } from "../src/bundle/xml-elements.ts";
import type { StructureDefinition } from "../src/structures/smart-structure.ts";

const node = (tag: string, text = "", attributes: Record<string, string> = {}, children: XmlNode[] = []): XmlNode => ({ tag, attributes, text, children });

describe("the XML export", () => {
  it("nests array rows, names docid targets with their titles, and tells what the reader may not see", async () => {
    const { platform, principal } = await seededPlatform();
    const { xml } = await platform.elements.readXml(await principal("admin"), "ART_HELLO");
    expect(xml).toContain('<article xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="ART_HELLO" title="Hello" revision="0"');
    expect(xml).toContain('state="draft">');
    expect(xml).toContain('<ar_author name="AUTHOR_ADA">Ada Lovelace</ar_author>');
    expect(xml).toContain("<ar_tags>tech</ar_tags>\n  <ar_tags>ai</ar_tags>");
    expect(xml).toContain('<ar_body xsi:nil="true"/>');
    expect(xml).toContain('<ar_secret granted="false"/>');
    expect(xml).not.toContain("hidden");
    expect(xml).toContain("<ar_links>\n    <ar_link_url>https://example.org</ar_link_url>\n    <ar_link_rank>1</ar_link_rank>\n  </ar_links>\n  <ar_links>\n    <ar_link_url>https://example.com</ar_link_url>");
  });
});

describe("the CSV export", () => {
  it("gives the //FAM, ORDER and DOC lines, labels in the reader's language", async () => {
    const { platform, principal } = await seededPlatform();
    const { csv } = await platform.elements.readCsv(await principal("alice"), "ART_HELLO");
    const [fam, order] = csv.split("\n");
    expect(fam).toMatch(/^\/\/FAM;Article\(ARTICLE\);<specid>;<fldid>;Titre;ar_category;/);
    expect(order).toMatch(/^ORDER;ARTICLE;;;ar_title;ar_category;ar_tags;/);
    expect(csv).toContain("DOC;ARTICLE;ART_HELLO;;Hello;tech;\"tech\nai\";120;3.5;");
  });
});

describe("elements read from XML", () => {
  const structure: StructureDefinition = {
    name: "MEMO",
    fields: [
      { id: "me_title", type: "text" }, { id: "me_count", type: "int" }, { id: "me_refs", type: "docid", multiple: true },
      { id: "me_file", type: "file" }, { id: "me_pin", type: "password" },
      { id: "me_rows", type: "array", fields: [{ id: "me_row_text", type: "text" }, { id: "me_row_tags", type: "text", multiple: true }] },
    ],
  };
  const read = (...documents: XmlNode[]) => elementsOfXml(documents, (tag) => (tag.toUpperCase() === "MEMO" ? structure : undefined), "memo.xml");

  it("reads fields through frames and tabs, rows, lists, names and nil, and leaves granted=false out", () => {
    const { entries, problems } = read(node("memo", "", { name: "MEMO_1", title: "ignored" }, [
      node("me_frame", "", {}, [node("me_title", "  spaced  "), node("me_count", "12")]),
      node("me_refs", "A title", { name: "A,B" }), node("me_refs", "C title", { name: "C" }),
      node("me_file", "", { mime: "", title: "", "xsi:nil": "true" }),
      node("me_pin", "", { granted: "false" }),
      node("me_rows", "", {}, [node("me_row_text", "one"), node("me_row_tags", "x"), node("me_row_tags", "y")]),
      node("me_rows", "", {}, [node("me_row_text", "", { "xsi:nil": "true" })]),
    ]));
    expect(problems).toEqual([]);
    expect(entries).toEqual([{
      structure: "MEMO", name: "MEMO_1",
      values: { me_title: "  spaced  ", me_count: 12, me_refs: ["A", "B", "C"], me_file: null, me_rows: [{ me_row_text: "one", me_row_tags: ["x", "y"] }, { me_row_text: null }] },
    }]);
  });

  it("finds a docid target given by its title alone in the store, as the original's import does", async () => {
    const { platform } = await seededPlatform();
    const article = (author: string) => node("article", "", { name: "ART_NEW" }, [node("ar_title", "New"), node("ar_author", author)]);
    const found = await platform.bundles.elementsOfXml([article("Ada Lovelace")], "a.xml");
    expect([found.problems, found.entries[0]!.values]).toEqual([[], { ar_title: "New", ar_author: "AUTHOR_ADA" }]);
    const missing = await platform.bundles.elementsOfXml([article("Nobody")], "a.xml");
    expect(missing.problems).toEqual([{ path: "a.xml:/article/ar_author[1]", message: expect.stringContaining('no element is titled "Nobody" in AUTHOR') }]);
  });

  it("takes files inside tags in base64, and relative hrefs", () => {
    const { entries, files } = read(node("memo", "", {}, [node("me_file", "aGVsbG8=", { mime: "text/plain", title: "a.txt" })]));
    const key = (entries[0]!.values as { me_file: { file: string } }).me_file.file;
    expect(new TextDecoder().decode(files.get(key))).toBe("hello");
    expect(read(node("memo", "", {}, [node("me_file", "", { href: "files/a.txt", title: "a.txt" })])).entries[0]!.values).toEqual({ me_file: { file: "files/a.txt" } });
  });

  it("reports what it cannot read at its path in the file", () => {
    const { problems } = read(
      node("documents", "", {}, [
        node("memo", "", {}, [node("me_nope", "x"), node("me_row_text", "outside"), node("me_title", "a"), node("me_title", "b")]),
        node("memo", "", {}, [node("me_refs", ""), node("me_file", "", { href: "/api/v2/smart-elements/1/files/me_file/-1/a.txt" })]),
        node("memo", "", {}, [node("me_file", "", { href: "../up.txt" })]),
        node("other"),
      ]),
    );
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ["memo.xml:/documents/memo[1]/me_nope[1]", expect.stringContaining('structure "MEMO" has no field "me_nope"')],
      ["memo.xml:/documents/memo[1]/me_row_text[1]", expect.stringContaining('field "me_row_text" is a column of the a')],
      ["memo.xml:/documents/memo[1]/me_title[2]", expect.stringContaining('field "me_title" takes one value: give i')],
      ["memo.xml:/documents/memo[2]/me_refs[1]", expect.stringContaining('the docid value of "me_refs" names no target')],
      ["memo.xml:/documents/memo[2]/me_file[1]", expect.stringContaining('the file of "me_file" is a link (/api/v2/')],
      ["memo.xml:/documents/memo[3]/me_file[1]", expect.stringContaining('"../up.txt" contains "..": files must be ')],
      ["memo.xml:/documents/other[1]", expect.stringContaining("<other> names no Smart Structure: the r")],
    ]);
  });
});
