import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOrExit } from "./serve-process.ts";
import { runLineage } from "./lineage-command.ts";
import { freshDatabase } from "@lineage/adapter-postgres/testing";

// `lineage serve --config` with the modules of `hooks` and `searchCallables`: a transition's m0 hook that asks a
// local HTTP service (a real one, in this process) whether the transition may run, a callable whose text the
// full-text search finds, and the start refused when the bundles name a function no module gives.

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-hooks-cli-"));
  dirs.push(dir);
  return dir;
};

const ADMIN = { authorization: `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`, "content-type": "application/json" };

const BUNDLE = {
  accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }] },
  lifecycles: [{
    name: "WFL_NOTE", firstState: "draft", states: [{ id: "draft" }, { id: "published" }],
    transitions: [{ id: "publish", from: "draft", to: "published", hooks: { m0: "askReviewService" } }],
  }],
  structures: [{ name: "NOTE", lifecycle: "WFL_NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] }],
  elements: [{ structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha" } }],
  searchDomains: [{ name: "notes", lang: "en", configs: [{ structure: "NOTE", fields: [{ field: "n_title", weight: "A" }], files: [], callables: [{ name: "reviewTags", weight: "B" }] }] }],
};


describe("hooks and search callables from the configuration's modules", () => {
  let service: Server;
  /** What the review service was asked, and what it answers next ("" lets the transition run). */
  const asked: unknown[] = [];
  let answer = "Waiting for the review";
  let dir: string;

  beforeAll(async () => {
    service = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        asked.push(JSON.parse(body));
        response.end(answer);
      });
    });
    await new Promise<void>((listening) => service.listen(0, "127.0.0.1", listening));
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/review`;
    dir = tempDir();
    writeFileSync(join(dir, "bundle.json"), JSON.stringify(BUNDLE));
    // The hook asks the service; its answer, when not empty, refuses the transition.
    writeFileSync(join(dir, "hooks.mjs"), [
      "export async function askReviewService({ element, transition, phase }) {",
      `  const response = await fetch(${JSON.stringify(serviceUrl)}, { method: "POST", body: JSON.stringify({ name: element.name, transition: transition.id, phase }) });`,
      "  return (await response.text()) || undefined;",
      "}",
    ].join("\n"));
    writeFileSync(join(dir, "callables.mjs"), "export const reviewTags = (element) => `zebracorn ${element.name}`;\n");
    writeFileSync(join(dir, "lineage.config.json"), JSON.stringify({ hooks: ["./hooks.mjs"], searchCallables: ["./callables.mjs"] }));
  });
  afterAll(() => new Promise<void>((closed) => service.close(() => closed())));

  it("runs a hook that calls a local HTTP service, and indexes a callable's text", async () => {
    const started = await serveOrExit(["--bundle", join(dir, "bundle.json"), "--config", join(dir, "lineage.config.json"), "--data", tempDir()]);
    expect(started.url, started.stderr).toBeDefined();
    try {
      await hookAndCallableAnswer(started.url!, started.url!);
    } finally {
      started.process.kill("SIGTERM");
    }
  });

  it("does the same on two nodes over one PostgreSQL: each node loads the modules, the hook refuses on either", async () => {
    const database = await freshDatabase();
    let nodes: Awaited<ReturnType<typeof serveOrExit>>[] = [];
    try {
      const imported = await runLineage(["import", "--database", database, "--data", tempDir(), join(dir, "bundle.json")]);
      expect(imported.status, imported.stderr).toBe(0);
      const node = () => serveOrExit(["--database", database, "--config", join(dir, "lineage.config.json"), "--data", tempDir()]);
      nodes = await Promise.all([node(), node()]);
      expect(nodes.map((node) => node.url), nodes.map((node) => node.stderr).join("\n")).toEqual([expect.any(String), expect.any(String)]);
      await hookAndCallableAnswer(nodes[0]!.url!, nodes[1]!.url!);
    } finally {
      for (const node of nodes) node.process.kill("SIGTERM");
    }
  }, 300_000);

  /** The transition refused through the first node while the service says so, then run through the second; the callable's text found. */
  async function hookAndCallableAnswer(first: string, second: string) {
    answer = "Waiting for the review";
    asked.splice(0);
    const transition = (node: string) => `${node}/api/v2/smart-elements/NOTE_A/workflows/transitions/publish`;
    const refused = await fetch(transition(first), { method: "POST", headers: ADMIN, body: "{}" });
    const refusal = (await refused.json()) as { messages: { code: string; contentText: string }[] };
    expect([refused.status, refusal.messages[0]!.code, refusal.messages[0]!.contentText]).toEqual([403, "WFL0300", "Waiting for the review"]);
    expect(asked).toContainEqual({ name: "NOTE_A", transition: "publish", phase: "m0" });

    answer = "";
    const passed = await fetch(transition(second), { method: "POST", headers: ADMIN, body: "{}" });
    expect(passed.status, await passed.clone().text()).toBe(200);
    expect(((await passed.json()) as { data: { state: { id: string } } }).data.state.id).toBe("published");

    // The callable's text is indexed: the search finds the element by it (the index is built in the background).
    let found: string[] = [];
    for (const giveUp = Date.now() + 20_000; found.length === 0 && Date.now() < giveUp; await new Promise((wait) => setTimeout(wait, 200))) {
      const search = await fetch(`${second}/api/v2/fullsearch/domains/notes/smart-elements/?q=zebracorn&fields=document.properties.name`, { headers: ADMIN });
      if (search.status !== 200) continue;
      found = ((await search.json()) as { data: { documents: { properties: { name: string } }[] } }).data.documents.map((d) => d.properties.name);
    }
    expect(found).toEqual(["NOTE_A"]);
  }

  it("stops the start, naming each function the bundles name and no module gives", async () => {
    writeFileSync(join(dir, "empty.config.json"), JSON.stringify({ hooks: ["./callables.mjs"] }));
    const stopped = await serveOrExit(["--bundle", join(dir, "bundle.json"), "--config", join(dir, "empty.config.json"), "--data", tempDir()]);
    expect(stopped.url).toBeUndefined();
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain('hook "askReviewService" (m0 of transition "publish" of lifecycle WFL_NOTE)');
    expect(stopped.stderr).toContain('search callable "reviewTags" (domain notes, structure NOTE)');
    // Without a configuration too: the bundles' hooks would silently do nothing.
    const bare = await serveOrExit(["--bundle", join(dir, "bundle.json"), "--data", tempDir()]);
    expect([bare.url, bare.stderr]).toEqual([undefined, expect.stringContaining('hook "askReviewService"')]);
  });

  it("refuses a module that cannot load or exports no function, naming the key", async () => {
    writeFileSync(join(dir, "none.mjs"), "export const answer = 42;\n");
    writeFileSync(join(dir, "bad.config.json"), JSON.stringify({ hooks: ["./none.mjs"] }));
    const none = await serveOrExit(["--bundle", join(dir, "bundle.json"), "--config", join(dir, "bad.config.json"), "--data", tempDir()]);
    expect([none.url, none.stderr]).toEqual([undefined, expect.stringContaining('hooks: "./none.mjs" exports no function')]);
    writeFileSync(join(dir, "missing.config.json"), JSON.stringify({ searchCallables: ["./nowhere.mjs"] }));
    const missing = await serveOrExit(["--bundle", join(dir, "bundle.json"), "--config", join(dir, "missing.config.json"), "--data", tempDir()]);
    expect([missing.url, missing.stderr]).toEqual([undefined, expect.stringContaining('searchCallables: cannot load "./nowhere.mjs"')]);
  });
});
