import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Platform, type Store } from "@lineage/core";
import { createDocumentTexts } from "@lineage/adapter-search";
import { docxWith, odtWith, pdfWith } from "@lineage/adapter-search/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// Issue 19, item 12, over a real server: the text of attached PDF, DOCX and ODT files is indexed
// for a domain that indexes files (read in bounded worker threads); a file that cannot be read is
// marked K ("Failing") in the administration route and the other elements are indexed all the same.

const FILES: Record<string, Uint8Array> = {
  "files/geyser.pdf": pdfWith("The geyser erupted twice"),
  "files/turbine.docx": docxWith("Dear colleagues,", "the turbine is ready."),
  "files/budget.odt": odtWith("Minutes", "Budget approved"),
  "files/broken.pdf": new TextEncoder().encode("%PDF-1.4 nothing else"),
};

const bundle = {
  accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }] },
  structures: [{ name: "BRIEF", titleField: "rp_title", fields: [{ id: "rp_title", type: "text" }, { id: "rp_file", type: "file" }] }],
  elements: Object.keys(FILES).map((path, i) => ({ structure: "BRIEF", name: `R_${i}`, values: { rp_title: `Report ${i}`, rp_file: { file: path } } })),
  searchDomains: [{ name: "reports", lang: "en", stem: "english", configs: [{ structure: "BRIEF", fields: [{ field: "rp_title", weight: "A" }], files: [{ field: "rp_file", weight: "D" }], callables: [] }] }],
};

const documents = createDocumentTexts({ timeoutMs: 10_000 });

async function seed(store: Store) {
  const options = { hasher: createScryptPasswordHasher({ N: 1024 }), searchDocuments: documents };
  const platform: Platform = createPlatform({ store, ...options });
  await platform.bundles.import(bundle, { readFile: (path) => FILES[path] });
  const twin = (other: Store): Platform => createPlatform({ store: other, ...options });
  return { platform, store, twin };
}

const ADMIN: [string, string] = ["admin", "admin-pw"];

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;

beforeAll(async () => {
  live = await startLiveServer(seed);
  // Each node builds its index at its first search (503 FSEA0004 meanwhile): reading the documents takes a few seconds.
  for (let tries = 0, ready = 0; ready < 2 && tries < 120; tries++) {
    const answer = await live.api.call("GET", "/api/v2/fullsearch/domains/reports/smart-elements/?q=report", { as: ADMIN });
    if (answer.status === 200) ready++;
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 60_000);

afterAll(async () => {
  await live.close();
  await documents.close();
});

async function found(q: string): Promise<[string, string][]> {
  const answer = await live.api.call("GET", `/api/v2/fullsearch/domains/reports/smart-elements/?q=${encodeURIComponent(q)}`, { as: ADMIN });
  expect(answer.status).toBe(200);
  return answer.json.data.documents.map((item: any) => [item.properties.title, item.highlights]);
}

describe("item 12: text of attached documents", () => {
  it("finds words inside a PDF, a DOCX and an ODT, and highlights them", async () => {
    expect(await found("geyser")).toEqual([["Report 0", "Report 0 The [[[geyser]]] erupted twice"]]);
    expect(await found("turbine")).toEqual([["Report 1", expect.stringContaining("the [[[turbine]]] is ready")]]);
    expect(await found("budget")).toEqual([["Report 2", expect.stringContaining("Minutes [[[Budget]]] approved")]]);
  });

  it("marks a file that cannot be read K in the administration route, and indexes the element by its fields", async () => {
    expect(await found("report")).toHaveLength(4);
    const admin = await live.api.call("GET", "/api/admin/fullsearch/domains/", { as: ADMIN });
    expect(admin.status).toBe(200);
    const reports = admin.json.data.config.find((domain: any) => domain.name === "reports");
    expect(reports.database.files).toEqual([
      { status: "D", count: 3, label: "Succeed" },
      { status: "K", count: 1, label: "Failing" },
      { status: "W", count: 0, label: "Waiting" },
    ]);
  });
});
