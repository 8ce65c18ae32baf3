import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Frames and tabs over a real server: DOC_BASE groups its fields in a tab of two frames and a
// frame of its own; DOC_INVOICE puts its own fields in the inherited frames, moves one, relabels
// a frame, and adds a frame. A frame I in its structure is shown to auditors only (a layer grants it).

const BUNDLE = {
  accounts: {
    roles: [{ id: "auditor" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "audrey", password: "audrey-pw", roles: ["auditor"] },
      { login: "bob", password: "bob-pw" },
      { login: "francois", password: "francois-pw", locale: "fr" },
    ],
  },
  fieldAccesses: [{ name: "FAL_SETS", layers: [{ grant: "role:auditor", fields: { fr_secret: "R" } }] }],
  structures: [
    {
      name: "DOC_BASE", fieldAccess: "FAL_SETS", titleField: "db_ref",
      fieldSets: [
        { id: "t_main", type: "tab", label: { en: "Main", fr: "Principal" } },
        { id: "fr_ident", type: "frame", label: "Identification", parent: "t_main" },
        { id: "fr_money", type: "frame", label: "Amounts", parent: "t_main" },
        { id: "fr_secret", type: "frame", label: "Secret", visibility: "I" },
        { id: "fr_fixed", type: "frame", label: "Fixed", visibility: "R" },
      ],
      fields: [
        { id: "db_free", type: "text" },
        { id: "db_ref", type: "text", fieldSet: "fr_ident" },
        { id: "db_label", type: "text", fieldSet: "fr_ident" },
        { id: "db_total", type: "money", fieldSet: "fr_money" },
        { id: "db_secret", type: "text", fieldSet: "fr_secret" },
        { id: "db_fixed", type: "text", fieldSet: "fr_fixed" },
        { id: "db_rows", type: "array", fieldSet: "fr_fixed", fields: [{ id: "db_row", type: "text" }] },
      ],
    },
    {
      name: "DOC_INVOICE", extends: "DOC_BASE",
      fieldSets: [{ id: "fr_money", type: "frame", label: "Totals", insertAfter: "::first" }, { id: "fr_extra", type: "frame", label: "Extra", parent: "t_main" }],
      fields: [
        { id: "inv_code", type: "text", fieldSet: "fr_ident", insertAfter: "db_ref" },
        { id: "inv_vat", type: "money", fieldSet: "fr_money" },
        { id: "inv_extra", type: "text", fieldSet: "fr_extra" },
      ],
    },
  ],
  elements: [{ structure: "DOC_INVOICE", name: "INV_1", values: { db_ref: "I1", inv_code: "C1", db_secret: "swordfish", db_fixed: "set" } }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
});

afterAll(async () => {
  await live.close();
});

const AUDREY: [string, string] = ["audrey", "audrey-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];

async function get(path: string, as: [string, string]) {
  const answer = await live.api.call("GET", path, { as });
  expect(answer.status).toBe(200);
  return answer;
}

/** The ids of a tree's nodes, depth first, each with its type and order. */
function walk(tree: Record<string, any>): string[] {
  return Object.values(tree).flatMap((node) => [`${node.id}:${node.type}:${node.logicalOrder}`, ...walk(node.content ?? {})]);
}

describe("frames and tabs", () => {
  it("nests the fields of a structure in its tabs and frames, a child's own fields in their frame", async () => {
    const tree = (await get("/api/v2/smart-structures/DOC_INVOICE.json?fields=family.structure", BOB)).json.data.family.structure;
    expect(walk(tree)).toEqual([
      "db_free:text:1",
      "t_main:tab:2", "fr_money:frame:3", "db_total:money:4", "inv_vat:money:5",
      "fr_ident:frame:6", "db_ref:text:7", "inv_code:text:8", "db_label:text:9",
      "fr_extra:frame:10", "inv_extra:text:11",
      "fr_fixed:frame:14", "db_fixed:text:15", "db_rows:array:16", "db_row:text:17",
    ]);
    expect(tree.t_main).toEqual(expect.objectContaining({ label: "Main", visibility: "W", multiple: false, options: {} }));
    expect(tree.t_main).not.toHaveProperty("needed");
    expect(tree.t_main.content.fr_money.label).toBe("Totals");
    // A read-only frame makes what it holds read-only, its array's columns too.
    expect(tree.fr_fixed.visibility).toBe("R");
    expect(tree.fr_fixed.content.db_fixed.visibility).toBe("R");
    expect(tree.fr_fixed.content.db_rows.content.db_row.visibility).toBe("R");
    const element = (await get("/api/v2/smart-elements/INV_1.json?fields=document.attributes.all,family.structure", BOB)).json.data;
    expect(element.document.attributes).not.toHaveProperty("db_secret");
    expect(walk(element.family.structure)).toEqual(walk(tree));
  });

  it("shows an invisible frame with its fields to the callers a layer grants it to", async () => {
    const tree = (await get("/api/v2/smart-structures/DOC_INVOICE.json?fields=family.structure", AUDREY)).json.data.family.structure;
    expect(tree.fr_secret).toMatchObject({ type: "frame", label: "Secret", visibility: "R", logicalOrder: 12, content: { db_secret: { visibility: "R" } } });
    const attributes = (await get("/api/v2/smart-elements/INV_1.json?fields=document.attributes.db_secret", AUDREY)).json.data.document.attributes;
    expect(attributes.db_secret.value).toBe("swordfish");
    const refused = await live.api.call("GET", "/api/v2/smart-elements/INV_1.json?fields=document.attributes.db_secret", { as: BOB });
    expect([refused.status, refused.json.messages[0].code]).toEqual([400, "CRUD0502"]);
  });

  it("refuses to write a field of a read-only frame", async () => {
    const put = await live.api.call("PUT", "/api/v2/smart-elements/INV_1", { as: BOB, json: { document: { attributes: { db_fixed: { value: "other" } } } } });
    expect([put.status, put.json.messages[0].code]).toEqual([500, "ROUTES0107"]);
  });

  it("labels sets in the caller's language", async () => {
    const french = await get("/api/v2/smart-structures/DOC_BASE.json?fields=family.structure", ["francois", "francois-pw"]);
    expect(french.json.data.family.structure.t_main.label).toBe("Principal");
    expect((await get("/api/v2/smart-structures/DOC_BASE.json?fields=family.structure", BOB)).json.data.family.structure.t_main.label).toBe("Main");
  });
});
