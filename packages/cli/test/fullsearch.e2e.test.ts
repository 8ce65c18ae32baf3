import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main, type Io } from "../src/index.ts";
import { startLineage, type LineageOptions, type RunningLineage } from "../src/start-lineage.ts";
import { freshDatabase } from "@lineage/adapter-postgres/testing";
import { E2E_STORE } from "@lineage/integration-tests";
import { expectDocumentedAnswer } from "@lineage/integration-tests";

// End to end over a real server: SQLite file, search index persisted in the data directory, HTTP on loopback.
// On PostgreSQL: two nodes on one database, each with its own data directory (its own index and
// snapshots), requests alternating between them: each must find what the other wrote.

const bundle = {
  accounts: {
    roles: [{ id: "reader" }, { id: "fullsearch_administrator" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "searcher", password: "searcher-pw", roles: ["fullsearch_administrator"] },
      { login: "reader", password: "reader-pw", roles: ["reader"] },
      { login: "outsider", password: "outsider-pw" },
    ],
  },
  profiles: [{ name: "PRF_NEWS", grants: { view: ["role:reader"], edit: ["role:reader"], delete: ["role:reader"] } }, { name: "PRF_SECRET", grants: { view: [] } }],
  structures: [
    { name: "NEWS", profile: "PRF_NEWS", titleField: "nw_title", fields: [
      { id: "nw_title", type: "text" }, { id: "nw_body", type: "htmltext" }, { id: "nw_file", type: "file" },
      // Visibility I: shown to nobody, so never matched nor highlighted, though the domain names it (issue 23).
      { id: "nw_secret", type: "text", visibility: "I" }, { id: "nw_hidden_file", type: "file", visibility: "I" },
    ] },
    { name: "SECRET", profile: "PRF_SECRET", titleField: "sc_title", fields: [{ id: "sc_title", type: "text" }] },
  ],
  elements: [
    { structure: "NEWS", name: "N_ONE", values: { nw_title: "Volcano eruption", nw_body: "<p>Lava everywhere</p>", nw_secret: "s3cret-value", nw_hidden_file: { file: "files/hidden.txt" } } },
    { structure: "NEWS", name: "N_TWO", values: { nw_title: "Weekly digest", nw_body: "<p>A small <b>Volcano</b> woke up near the coast</p>", nw_file: { file: "files/notes.txt" } } },
    { structure: "SECRET", name: "S_ONE", values: { sc_title: "Secret volcano base" } },
  ],
  searchDomains: [{
    name: "news", lang: "en", stem: "english",
    configs: [
      {
        structure: "NEWS", fields: [{ field: "nw_title", weight: "A" }, { field: "nw_body", weight: "C" }, { field: "nw_secret", weight: "B" }],
        files: [{ field: "nw_file", weight: "D" }, { field: "nw_hidden_file", weight: "D" }], callables: [],
      },
      { structure: "SECRET", fields: [{ field: "sc_title", weight: "A" }], files: [], callables: [] },
    ],
  }],
};

const root = mkdtempSync(join(tmpdir(), "lineage-fullsearch-"));
const dataDir = join(root, "data");
const bundleFile = join(root, "bundle.json");
/** The first node: the one the tests restart. */
let server: RunningLineage;
let other: RunningLineage | undefined;
let database: { databaseUrl?: string } = {};
/** The store flags of the CLI commands the tests run. */
const storeFlags = () => ["--data", dataDir, ...(database.databaseUrl ? ["--database", database.databaseUrl] : [])];
const startNode = (options: LineageOptions = {}) => startLineage({ dataDir, port: 0, ...database, ...options });
let turn = 0;
const basic = (login: string) => `Basic ${Buffer.from(`${login}:${login}-pw`).toString("base64")}`;

async function call(method: string, path: string, login = "admin", json?: unknown) {
  const node = other && turn++ % 2 === 1 ? other : server;
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { authorization: basic(login), ...(json === undefined ? {} : { "content-type": "application/json" }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  expectDocumentedAnswer({ method, url: path, status: response.status, contentType: response.headers.get("content-type"), body: text });
  return { status: response.status, json: JSON.parse(text) as any };
}
const search = (q: string, login = "admin", extra = "") =>
  call("GET", `/api/v2/fullsearch/domains/news/smart-elements/?q=${encodeURIComponent(q)}${extra}`, login);
const titles = async (q: string, login = "admin") => (await search(q, login)).json.data.documents.map((d: any) => d.properties.title);

/** Once the node's /health names no search domain still loading or building (it listens before). */
async function indexesReady(node: RunningLineage): Promise<void> {
  for (let tries = 0; ; tries++) {
    const health = (await (await fetch(`${node.url}/health`)).json()) as { data: { building: { searchDomains: string[] } } };
    if (health.data.building.searchDomains.length === 0) return;
    if (tries > 1000) throw new Error(`still building: ${health.data.building.searchDomains.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function capture(): Io & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), err: (line) => lines.push(line) };
}

beforeAll(async () => {
  mkdirSync(join(root, "files"));
  writeFileSync(join(root, "files/notes.txt"), "Field notes about a geyser and its steam.");
  writeFileSync(join(root, "files/hidden.txt"), "Confidential payroll of the volcano staff.");
  writeFileSync(bundleFile, JSON.stringify(bundle));
  if (E2E_STORE === "postgres") database = { databaseUrl: await freshDatabase() };
  server = await startNode({ bundles: [bundleFile] });
  if (E2E_STORE === "postgres") other = await startLineage({ dataDir: join(root, "other-node"), port: 0, ...database });
});
afterAll(async () => {
  await other?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("GET /api/v2/fullsearch/domains/<domain>/smart-elements/", () => {
  it("never matches nor highlights a field or file of visibility I, whoever searches", async () => {
    for (const login of ["admin", "reader"]) {
      for (const q of ["s3cret", "payroll"]) {
        const { status, json } = await search(q, login);
        expect([status, json.data.documents]).toEqual([200, []]);
      }
      const { json } = await search("volcano", login);
      const highlights = json.data.documents.map((d: any) => d.highlights).join(" ");
      expect(highlights).not.toMatch(/s3cret|payroll/i);
    }
  });

  it("answers by relevance with highlights and the request parameters", async () => {
    const { status, json } = await search("volcano", "admin", "&fields=document.properties.title");
    expect(status).toBe(200);
    expect(json.data.requestParameters).toEqual({ slice: 10, offset: 0, length: 3, orderBy: "relevance desc, id asc", q: "volcano", searchDomain: "news" });
    expect(json.data.uri).toBe("/api/v2/fullsearch/domains/news/smart-elements/");
    expect(json.data.documents.map((d: any) => [d.properties.title, d.highlights])).toEqual([
      ["Volcano eruption", "[[[Volcano]]] eruption Lava everywhere"],
      ["Secret volcano base", "Secret [[[volcano]]] base"],
      ["Weekly digest", expect.stringContaining("A small [[[Volcano]]] woke up")],
    ]);
    expect(await titles("geyser")).toEqual(["Weekly digest"]);
  });

  it("shows only what the caller may view", async () => {
    expect(await titles("volcano", "reader")).toEqual(["Volcano eruption", "Weekly digest"]);
    expect(await titles("volcano", "outsider")).toEqual([]);
  });

  it("finds a new word right after a PUT, and forgets a deleted element", async () => {
    const put = await call("PUT", "/api/v2/smart-elements/N_ONE", "admin", { document: { attributes: { nw_body: { value: "<p>An avalanche</p>" } } } });
    expect(put.status).toBe(200);
    expect(await titles("avalanche")).toEqual(["Volcano eruption"]);
    expect(await titles("lava")).toEqual([]);
    expect((await call("DELETE", "/api/v2/smart-elements/N_TWO")).status).toBe(200);
    expect(await titles("geyser")).toEqual([]);
    expect((await call("PUT", "/api/v2/trash/N_TWO", "admin", { document: { properties: { status: "alive" } } })).status).toBe(200);
    expect(await titles("geyser")).toEqual(["Weekly digest"]);
  });

  it("answers errors in the envelope: unknown domain, malformed query, other methods", async () => {
    const unknown = await call("GET", "/api/v2/fullsearch/domains/nope/smart-elements/?q=x");
    expect(unknown.status).toBe(400);
    expect(unknown.json.messages[0]).toMatchObject({ type: "error", code: "FSEA0002", contentText: 'Search Domain "nope" is not recorded.' });
    const bad = await search('"volcano');
    expect(bad.status).toBe(400);
    expect(bad.json.messages[0]).toMatchObject({ code: "FSEA0003", contentText: expect.stringContaining("a quote is not closed") });
    expect((await call("POST", "/api/v2/fullsearch/domains/news/smart-elements/")).status).toBe(501);
    expect((await call("DELETE", "/api/admin/fullsearch/domains/")).status).toBe(501);
  });
});

describe("/api/admin/fullsearch/domains/", () => {
  it("describes the domains to fullsearch_administrator, refuses others with 403", async () => {
    // The description tells what a node's index holds, which catches up with other nodes' writes on its own
    // clock; a search brings it current (read-your-writes): one on each node, requests alternating.
    for (let i = 0; i < 2; i++) expect(await titles("geyser")).toEqual(["Weekly digest"]);
    const { status, json } = await call("GET", "/api/admin/fullsearch/domains/", "searcher");
    expect(status).toBe(200);
    const [news] = json.data.config;
    expect(news.name).toBe("news");
    expect(news.database.structures).toEqual({
      NEWS: { totalToIndex: 2, totalIndexed: 2, totalDirty: expect.any(Number) },
      SECRET: { totalToIndex: 1, totalIndexed: 1, totalDirty: 0 },
    });
    expect(news.database.files).toEqual([
      { status: "D", count: 1, label: "Succeed" }, { status: "K", count: 0, label: "Failing" }, { status: "W", count: expect.any(Number), label: "Waiting" },
    ]);
    expect(news.database.size.prettySize).toMatch(/^\d+ (bytes|kB)$/);
    expect(json.data.nextUpdateDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const refused = await call("GET", "/api/admin/fullsearch/domains/", "reader");
    expect(refused.status).toBe(403);
    expect(refused.json.messages[0].code).toBe("ROUTES0131");
    expect((await call("POST", "/api/admin/fullsearch/domains/", "outsider")).status).toBe(403);
  });

  it("reindexes outdated data on POST", async () => {
    const { status, json } = await call("POST", "/api/admin/fullsearch/domains/", "admin");
    expect(status).toBe(200);
    expect(Object.keys(json.data)).toEqual(["news"]);
    expect(Array.isArray(json.data.news)).toBe(true);
  });
});

describe("lineage search reindex", () => {
  it("rebuilds with a progress bar while the server runs, and the server loads the new index", async () => {
    const io = capture();
    expect(await main(["search", "reindex", ...storeFlags(), "news"], io)).toBe(0);
    expect(io.lines).toContain('Reindexing "news" 100% 3/3');
    expect(io.lines.at(-1)).toMatch(/^Domain "news": 3 elements indexed in \d+\.\d s\.$/);
    expect(readdirSync(join(dataDir, "search"))).toContain("news.1.lnsx");
    // Asked of each node (requests alternate on two nodes): each loads the new generation before it answers.
    for (const _node of [server, other ?? server]) expect(await titles("avalanche")).toEqual(["Volcano eruption"]);
    expect(server.platform.fullsearch.engine.index.coverage("news")?.generation).toBe(1);
    const unknown = capture();
    expect(await main(["search", "reindex", ...storeFlags(), "nope"], unknown)).toBe(1);
    expect(unknown.lines.join("\n")).toMatch(/Search Domain "nope" is not recorded/);
  });

  it("loads the persisted index at restart instead of rebuilding it", async () => {
    await server.close();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      server = await startNode();
      await indexesReady(server);
      expect(log.mock.calls.flat().join("\n")).not.toMatch(/building/);
    } finally {
      log.mockRestore();
    }
    expect(await titles("avalanche")).toEqual(["Volcano eruption"]);
  });

  it("leaves the index current after `lineage import`: the server started then loads it, builds nothing, and finds what was imported", async () => {
    await server.close();
    const more = { ...bundle, elements: [{ structure: "NEWS", name: "N_THREE", values: { nw_title: "Glacier retreat", nw_body: "<p>Ice melts</p>" } }] };
    const moreFile = join(root, "more.json");
    writeFileSync(moreFile, JSON.stringify(more));
    // No snapshot left: without the import's, the server would build the index.
    rmSync(join(dataDir, "search"), { recursive: true, force: true });
    const io = capture();
    expect(await main(["import", ...storeFlags(), moreFile], io)).toBe(0);
    expect(io.lines.at(-1)).toMatch(/^search domain "news": index current, 4 documents \(\d+\.\d s\)$/);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      server = await startNode();
      await indexesReady(server);
      expect(log.mock.calls.flat().join("\n")).not.toMatch(/building/);
    } finally {
      log.mockRestore();
    }
    expect(await titles("glacier")).toEqual(["Glacier retreat"]);
  });

  it("serves with the MiniSearch index when asked (its own snapshot files), and refuses an unknown index", async () => {
    await server.close();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await expect(startNode({ searchIndex: "nope" as never })).rejects.toThrow('unknown search index "nope": compact or minisearch');
      server = await startNode({ searchIndex: "minisearch" });
      await indexesReady(server);
      expect(log.mock.calls.flat().join("\n")).toMatch(/domain "news": no usable index, building it/);
    } finally {
      log.mockRestore();
    }
    // The snapshot of the index just built is written in the background.
    await vi.waitFor(() => expect(readdirSync(join(dataDir, "search")).sort()).toEqual(["news.1.json", "news.1.lnsx"]), { timeout: 10_000 });
    expect(await titles("avalanche")).toEqual(["Volcano eruption"]);
  });
});
