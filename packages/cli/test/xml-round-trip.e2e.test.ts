import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Store } from "@lineage/core";
import { freshDatabase } from "@lineage/adapter-postgres/testing";
import { E2E_STORE, startLiveServer, withTwin, type LiveServer } from "@lineage/integration-tests";
import { main, type Io } from "../src/index.ts";
import { startLineage, type RunningLineage } from "../src/start-lineage.ts";

// The XML export read back by `lineage import`: every field type, lists and array rows, exported
// over HTTP (on PostgreSQL, through two nodes), imported into an empty store that has the bundle's
// definitions, and exported again from a server on that store: the same values, files included.
// On PostgreSQL both stores are databases of their own.

const definitions = {
  accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }, { login: "ann", password: "ann-pw", displayName: "Ann Smith" }] },
  enumerates: { COLOURS: [{ key: "red", label: "Red" }, { key: "blue", label: "Blue" }] },
  structures: [
    { name: "TARGET", titleField: "tg_title", fields: [{ id: "tg_title", type: "text" }] },
    {
      name: "EVERY", titleField: "ev_text",
      // Fields in a frame of a tab, in a frame of no tab, and of no set; a frame holding nothing.
      fieldSets: [
        { id: "t_main", type: "tab", label: "Main" }, { id: "fr_texts", type: "frame", label: "Texts", parent: "t_main" },
        { id: "fr_rows", type: "frame", label: "Rows" }, { id: "fr_empty", type: "frame", label: "Nothing", parent: "t_main" },
      ],
      fields: [
        { id: "ev_text", type: "text", fieldSet: "fr_texts" }, { id: "ev_long", type: "longtext", fieldSet: "fr_texts" }, { id: "ev_html", type: "htmltext", fieldSet: "fr_texts" },
        { id: "ev_int", type: "int" }, { id: "ev_double", type: "double" }, { id: "ev_money", type: "money" },
        { id: "ev_date", type: "date" }, { id: "ev_stamp", type: "timestamp" }, { id: "ev_time", type: "time" },
        { id: "ev_enum", type: "enum", enum: "COLOURS" }, { id: "ev_doc", type: "docid", structure: "TARGET" },
        { id: "ev_account", type: "account" }, { id: "ev_color", type: "color" }, { id: "ev_pin", type: "password" },
        { id: "ev_file", type: "file" }, { id: "ev_image", type: "image" }, { id: "ev_empty", type: "text" },
        { id: "ev_texts", type: "text", multiple: true }, { id: "ev_enums", type: "enum", enum: "COLOURS", multiple: true },
        { id: "ev_docs", type: "docid", multiple: true }, { id: "ev_files", type: "file", multiple: true },
        { id: "ev_none", type: "text", multiple: true },
        { id: "ev_rows", type: "array", fieldSet: "fr_rows", fields: [
          { id: "ev_row_text", type: "text" }, { id: "ev_row_int", type: "int" }, { id: "ev_row_doc", type: "docid" },
          { id: "ev_row_file", type: "file" }, { id: "ev_row_date", type: "date" },
        ] },
      ],
    },
  ],
};

const TRICKY = "Ünïcode & <markup> \"quoted\" ]]> end";
const elements = [
  { structure: "TARGET", name: "TG_ONE", values: { tg_title: "Target one" } },
  { structure: "TARGET", name: "TG_TWO", values: { tg_title: "Target & two" } },
  {
    structure: "EVERY", name: "EV_FULL", values: {
      ev_text: "Full element", ev_long: `Line one\nLine two ${TRICKY}`, ev_html: "<p>Hello <b>world</b> &amp; more</p>",
      ev_int: 42, ev_double: 3.25, ev_money: 1234.5, ev_date: "2026-03-04", ev_stamp: "2026-03-04T05:06:07", ev_time: "09:30:15",
      ev_enum: "blue", ev_doc: "TG_ONE", ev_account: "ann", ev_color: "#34ED0F", ev_pin: "never-exported",
      ev_file: { file: "files/notes.txt" }, ev_image: { file: "files/dot.png" },
      ev_texts: ["first", TRICKY, "third"], ev_enums: ["red", "blue"], ev_docs: ["TG_TWO", "TG_ONE"],
      ev_files: [{ file: "files/notes.txt" }, { file: "files/other.txt" }],
      ev_rows: [
        { ev_row_text: "row one", ev_row_int: 1, ev_row_doc: "TG_ONE", ev_row_file: { file: "files/other.txt" }, ev_row_date: "2026-01-02" },
        { ev_row_text: TRICKY, ev_row_int: 2, ev_row_doc: "TG_TWO" },
      ],
    },
  },
  { structure: "EVERY", name: "EV_SPARSE", values: { ev_text: "Sparse element" } },
];

/** A 1x1 PNG. */
const png = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"));
const textFiles: Record<string, string> = { "files/notes.txt": "Some notes\nin two lines\n", "files/other.txt": "Another file" };

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform = createPlatform({ store, hasher });
  const readFile = (path: string) => (path === "files/dot.png" ? png : textFiles[path] === undefined ? undefined : new TextEncoder().encode(textFiles[path]));
  await platform.bundles.import({ ...definitions, elements }, { readFile });
  // A target without a logical name: the export gives its title alone, the import finds it by it.
  const admin = await platform.accounts.principal("admin");
  const unnamed = await platform.elements.create(admin!, { structure: "TARGET", values: { tg_title: "Unnamed target" } });
  await platform.elements.update(admin!, "EV_SPARSE", { values: { ev_doc: String(unnamed.initid), ev_docs: ["TG_ONE", String(unnamed.initid)] } });
  return withTwin({ platform, store, hasher, unnamed });
}

const root = mkdtempSync(join(tmpdir(), "lineage-xml-round-trip-"));
let source: LiveServer<Awaited<ReturnType<typeof seed>>>;
/** The empty store the exports are imported into, as `lineage import` and `lineage serve` name it. */
let target: { dataDir: string; databaseUrl?: string };
let targetServer: RunningLineage | undefined;

function capture(): Io & { out: (line: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), err: (line) => lines.push(line) };
}

const storeFlags = () => ["--data", target.dataDir, ...(target.databaseUrl ? ["--database", target.databaseUrl] : [])];
const lineageImport = async (...files: string[]) => {
  const io = capture();
  const status = await main(["import", ...storeFlags(), ...files], io);
  return { status, output: io.lines.join("\n") };
};

/** An export without what differs from one store to another by nature: the revision and the modification date. */
const comparable = (xml: string) => xml.replace(/ revision="\d+"/, "").replace(/ modification-date="[^"]*"/, "");

const AS_ADMIN = { headers: { authorization: `Basic ${Buffer.from("admin:admin-pw").toString("base64")}` } };
/** The `data` of a JSON answer of a node. */
const dataAt = async (url: string): Promise<any> => ((await (await fetch(url, AS_ADMIN)).json()) as { data: unknown }).data;

async function exported(name: string, withFiles = true): Promise<string> {
  const answer = await source.api.call("GET", `/api/v2/smart-elements/${name}.xml${withFiles ? "?withFiles=true" : ""}`, { as: ["admin", "admin-pw"] });
  expect(answer.status).toBe(200);
  return answer.text;
}

beforeAll(async () => {
  source = await startLiveServer(seed);
  target = { dataDir: join(root, "target") };
  if (E2E_STORE === "postgres") target.databaseUrl = await freshDatabase();
  const definitionsFile = join(root, "definitions.json");
  writeFileSync(definitionsFile, JSON.stringify(definitions));
  const { status, output } = await lineageImport(definitionsFile);
  expect(status, output).toBe(0);
});

afterAll(async () => {
  await targetServer?.close();
  await source?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the XML export", () => {
  it("is the original's import format: nested rows, names with titles, files, nil and granted", async () => {
    const xml = await exported("EV_FULL", false);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<every xmlns:xsi="http:\/\/www.w3.org\/2001\/XMLSchema-instance" name="EV_FULL" title="Full element" revision="0" modification-date="[^"]+" version="" state="">/);
    expect(xml).toContain('<ev_doc name="TG_ONE">Target one</ev_doc>');
    expect(xml).toContain('<ev_account name="ann">Ann Smith</ev_account>');
    // A list of named targets in one tag, as the original writes it.
    expect(xml).toContain('<ev_docs name="TG_TWO,TG_ONE">multiple document</ev_docs>');
    expect(xml).toMatch(/<ev_file vid="" mime="text\/plain" href="\/api\/v2\/smart-elements\/\d+\/files\/ev_file\/-1\/notes.txt\?inline=true" title="notes.txt"\/>/);
    expect(xml).toContain('<ev_empty xsi:nil="true"/>');
    expect(xml).toContain('<ev_none xsi:nil="true"/>');
    expect(xml).toContain('<ev_pin granted="false"/>');
    expect(xml).not.toContain("never-exported");
    expect(xml).toContain("<ev_long><![CDATA[Line one\nLine two Ünïcode & <markup> \"quoted\" ]]]]><![CDATA[> end]]></ev_long>");
    expect(xml).toContain("<ev_color>#34ED0F</ev_color>");
    // Fields of no set first, then the tabs and frames with what they hold, nested; one element per
    // array row, its cells inside, in the structure's order.
    expect(xml).toMatch(/\n {2}<ev_int>42<\/ev_int>\n/);
    expect(xml).toContain("  <t_main>\n    <fr_texts>\n      <ev_text>Full element</ev_text>\n      <ev_long>");
    expect(xml).toContain("</ev_html>\n    </fr_texts>\n    <fr_empty>\n    </fr_empty>\n  </t_main>\n  <fr_rows>\n    <ev_rows>\n");
    expect(xml).toMatch(/<ev_rows>\n {6}<ev_row_text>row one<\/ev_row_text>\n {6}<ev_row_int>1<\/ev_row_int>\n {6}<ev_row_doc name="TG_ONE">Target one<\/ev_row_doc>\n {6}<ev_row_file [^>]*\/>\n {6}<ev_row_date>2026-01-02<\/ev_row_date>\n {4}<\/ev_rows>\n {4}<ev_rows>/);
    expect(xml).toMatch(/<\/ev_rows>\n {2}<\/fr_rows>\n<\/every>\n$/);
    expect(xml).toContain('<ev_row_file mime="" title="" xsi:nil="true"/>');
    // Links lead to the files.
    const href = /<ev_file [^>]*href="([^"]+)"/.exec(xml)?.[1] ?? "";
    const file = await source.api.call("GET", href.replace(/&amp;/g, "&"), { as: ["admin", "admin-pw"] });
    expect([file.status, file.text]).toEqual([200, textFiles["files/notes.txt"]]);
  });

  it("carries the files inside their tags with withFiles=true", async () => {
    const xml = await exported("EV_FULL");
    expect(xml).toContain(`<ev_file vid="" mime="text/plain" title="notes.txt">${Buffer.from(textFiles["files/notes.txt"]!).toString("base64")}</ev_file>`);
    expect(xml).not.toContain("href=");
  });
});

describe("lineage import of XML elements", () => {
  it("reads the exports back into an empty store: the same values, every type, lists and rows", async () => {
    const files: string[] = [];
    for (const name of ["TG_ONE", "TG_TWO", String(source.seed.unnamed.initid), "EV_FULL", "EV_SPARSE"]) {
      const file = join(root, `${name}.xml`);
      writeFileSync(file, await exported(name));
      files.push(file);
    }
    // The targets first: an element's docid values name elements stored before it (or in the same file).
    const { status, output } = await lineageImport(...files);
    expect(status, output).toBe(0);
    expect(output).toMatch(/created/);
    targetServer = await startLineage({ ...target, port: 0 });
    for (const name of ["TG_ONE", "TG_TWO", "EV_FULL", "EV_SPARSE"]) {
      const again = await fetch(`${targetServer.url}/api/v2/smart-elements/${name}.xml?withFiles=true`, AS_ADMIN);
      expect(again.status).toBe(200);
      expect(comparable(await again.text()), name).toBe(comparable(await exported(name)));
    }
    // And the JSON of both agrees where ids do not differ by nature.
    const json = async (url: string) => (await dataAt(url)).document.attributes;
    const before = await json(`${source.url}/api/v2/smart-elements/EV_FULL`);
    const after = await json(`${targetServer.url}/api/v2/smart-elements/EV_FULL`);
    for (const id of ["ev_text", "ev_long", "ev_html", "ev_int", "ev_double", "ev_money", "ev_date", "ev_stamp", "ev_time", "ev_enum", "ev_account", "ev_color", "ev_texts", "ev_enums", "ev_row_text", "ev_row_int", "ev_row_date"]) {
      expect(after[id], id).toEqual(before[id]);
    }
    expect(after.ev_docs.map((v: { displayValue: string }) => v.displayValue)).toEqual(["Target & two", "Target one"]);
    expect(after.ev_image).toMatchObject({ mime: "image/png", size: png.length });
    const sparse = await json(`${targetServer.url}/api/v2/smart-elements/EV_SPARSE`);
    expect(sparse.ev_doc.displayValue).toBe("Unnamed target");
    expect(await exported("EV_SPARSE", false)).toContain("<ev_doc>Unnamed target</ev_doc>");
    // A list with a target of no name: one tag per target, each found again (the unnamed one by its title).
    expect(await exported("EV_SPARSE", false)).toMatch(/<ev_docs name="TG_ONE">Target one<\/ev_docs>\s*<ev_docs>Unnamed target<\/ev_docs>/);
  });

  it("takes several elements in one file, and imports again without changing anything", async () => {
    const body = (xml: string) => xml.replace(/^<\?xml[^>]*>\n/, "");
    const file = join(root, "several.xml");
    writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n<documents>\n${body(await exported("TG_ONE"))}${body(await exported("EV_SPARSE"))}</documents>\n`);
    const { status, output } = await lineageImport(file);
    expect(status, output).toBe(0);
    expect(output).toMatch(/unchanged/);
  });

  it("refuses bad XML with a clear message, and a file with a bad element whole: nothing half-written", async () => {
    const count = async () => (await dataAt(`${targetServer!.url}/api/v2/smart-structures/EVERY/smart-elements/?slice=all`)).documents.length;
    const before = await count();
    const broken = join(root, "broken.xml");
    writeFileSync(broken, '<?xml version="1.0"?>\n<every name="EV_BROKEN">\n  <ev_text>Broken</ev_txt>\n</every>\n');
    const malformed = await lineageImport(broken);
    expect(malformed.status).toBe(1);
    expect(malformed.output).toMatch(/broken\.xml: not well-formed XML, .*\(line 3, column \d+\)/);
    const mixed = join(root, "mixed.xml");
    writeFileSync(mixed, [
      '<documents xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
      '  <every name="EV_NEW_GOOD"><ev_text>Good</ev_text></every>',
      '  <every name="EV_NEW_BAD"><ev_text>Bad</ev_text><ev_date>not a date</ev_date></every>',
      "</documents>",
    ].join("\n"));
    const refused = await lineageImport(mixed);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/ev_date/);
    const unknown = join(root, "unknown.xml");
    writeFileSync(unknown, '<every name="EV_UNKNOWN"><ev_nope>x</ev_nope></every>');
    const unknownField = await lineageImport(unknown);
    expect([unknownField.status, unknownField.output]).toEqual([1, expect.stringContaining('structure "EVERY" has no field "ev_nope"')]);
    const link = join(root, "link.xml");
    writeFileSync(link, '<every name="EV_LINK"><ev_file mime="text/plain" href="/api/v2/smart-elements/1/files/ev_file/-1/a.txt" title="a.txt"/></every>');
    expect((await lineageImport(link)).output).toMatch(/is a link .*withFiles=true/);
    expect(await count()).toBe(before);
  });
});
