import { join, resolve } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Store } from "@lineage/core";
import { createJimpImages, createJimpProcessor } from "@lineage/adapter-images";
import { startLiveServer, type LiveServer } from "@lineage/integration-tests";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createLineageClient, LineageApiError, type LineageClient, type LineageEvent } from "../src/index.ts";
import type { Article, Author, Dir, Search } from "../../../examples/demo/lineage-types.ts";

// The client against a real listening server on the demo bundle (SQLite here; two nodes on PostgreSQL
// in the project "two nodes on postgres"): every route group, through the client's own methods only.

const DEMO = resolve(import.meta.dirname, "../../../examples/demo");
const bundle = JSON.parse(readFileSync(join(DEMO, "bundle.json"), "utf8")) as unknown;
const readFile = (path: string) => {
  try {
    return readFileSync(join(DEMO, path));
  } catch {
    return undefined;
  }
};

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform = createPlatform({ store, hasher });
  await platform.bundles.import(bundle, { readFile });
  return { platform, store, twin: (other: Store) => createPlatform({ store: other, hasher }) };
}

const cache = mkdtempSync(join(tmpdir(), "lineage-client-images-"));
const images = createJimpImages({ imagesDir: join(DEMO, "images"), cacheDir: cache, processor: createJimpProcessor({ workers: 1 }) });
let live: LiveServer<Awaited<ReturnType<typeof seed>>>;
let admin: LineageClient;
let alice: LineageClient;

beforeAll(async () => {
  live = await startLiveServer(seed, { images });
  admin = createLineageClient({ baseUrl: live.url, auth: { type: "basic", login: "admin", password: "admin" } });
  alice = createLineageClient({ baseUrl: live.url, auth: { type: "basic", login: "alice", password: "alice" } });
});

afterAll(async () => {
  await live?.close();
  await images.close?.();
  rmSync(cache, { recursive: true, force: true });
});

/** The error a promise is rejected with. */
async function refusal(promise: Promise<unknown>): Promise<LineageApiError> {
  const error = await promise.then(() => undefined, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(LineageApiError);
  return error as LineageApiError;
}

describe("authentication", () => {
  it("by Basic, by an access token and by a session of the login form; a wrong password is a typed 401", async () => {
    expect((await alice.elements.read<Article>("ART_HELLO")).values.ar_title).toMatch(/Hello/);
    const token = await live.seed.platform.tokens.create("bob", ["GET /api/v2/smart-elements/*"], { expiration: -1, oneshot: false, description: "client test" });
    const byToken = createLineageClient({ baseUrl: live.url, auth: { type: "token", token } });
    expect((await byToken.elements.read("ART_HELLO")).properties.name).toBe("ART_HELLO");
    const bySession = createLineageClient({ baseUrl: live.url, auth: { type: "session", login: "alice", password: "alice" } });
    expect((await bySession.elements.read("ART_HELLO")).properties.name).toBe("ART_HELLO");
    const written = await bySession.elements.update<Article>("ART_SPIRAL_GALAXIES", { ar_words: 1234 });
    expect(written.values.ar_words).toBe(1234);
    const wrong = await refusal(createLineageClient({ baseUrl: live.url, auth: { type: "basic", login: "alice", password: "nope" } }).elements.list());
    expect([wrong.status, wrong.code]).toEqual([401, "AUTH0401"]);
    const none = await refusal(createLineageClient({ baseUrl: live.url }).elements.list());
    expect(none.status).toBe(401);
    const badSession = await refusal(createLineageClient({ baseUrl: live.url, auth: { type: "session", login: "alice", password: "nope" } }).elements.list());
    expect(badSession.status).toBe(401);
  });
});

describe("elements", () => {
  it("lists with a typed filter, an order, the fields asked and the total", async () => {
    const page = await admin.elements.list<Article>({
      structure: "ARTICLE", filter: { logic: "and", filters: [{ field: "ar_category", operator: "in", value: ["ai", "space"] }] },
      fields: ["ar_title", "ar_category"], orderBy: "title:asc", count: true, slice: 2,
    });
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.items).toHaveLength(2);
    for (const item of page.items) expect(["ai", "space"]).toContain(item.values.ar_category);
    expect(page.items[0]!.values.ar_title).toBe(page.items[0]!.properties.title);
  });

  it("reads flat values and their display texts, with the ETag", async () => {
    const hello = await admin.elements.read<Article>("ART_HELLO");
    expect(hello.values.ar_tags).toEqual(["tech", "web"]);
    expect(hello.display.ar_tags).toEqual(["Technology", "Technology/Web"]);
    expect(typeof hello.values.ar_author).toBe("number");
    expect(hello.values.ar_link_title).toEqual(["Press release", "About the platform"]);
    expect(hello.properties.state?.reference).toBe("draft");
    expect(hello.etag).toMatch(/./);
    expect(await admin.elements.readXml("ART_HELLO")).toMatch(/^<\?xml/);
    expect(await admin.elements.readXml("ART_HELLO", { withFiles: true })).toMatch(/^<\?xml[^]*<article /);
    expect(await admin.elements.readCsv("ART_HELLO")).toMatch(/^\/\/FAM;[^\n]*\nORDER;ARTICLE;;;[^\n]*\nDOC;ARTICLE;ART_HELLO;;/);
  });

  it("creates and updates from flat values, with If-Match when asked, and deletes", async () => {
    const created = await alice.elements.create<Article>("ARTICLE", { ar_title: "Bonjour", ar_tags: ["space"], ar_author: "AUTHOR_JANE", ar_words: 12 });
    expect(created.values).toMatchObject({ ar_title: "Bonjour", ar_tags: ["space"], ar_words: 12 });
    const id = created.properties.initid;
    const updated = await alice.elements.update<Article>(id, { ar_title: "Bonjour à tous" }, { ifMatch: created });
    expect(updated.values.ar_title).toBe("Bonjour à tous");
    const stale = await refusal(alice.elements.update<Article>(id, { ar_title: "Too late" }, { ifMatch: created.etag! }));
    expect([stale.status, stale.code]).toEqual([412, "CRUD0238"]);
    const missing = await refusal(alice.elements.create<Article>("ARTICLE", { ar_title: "" }));
    expect([missing.status, missing.code]).toEqual([400, "VALUE0002"]);
    const deleted = await alice.elements.delete(id, { ifMatch: updated });
    expect(deleted.properties.status).toBe("deleted");
    const gone = await refusal(alice.elements.read(id));
    expect([gone.status, gone.code]).toEqual([404, "ROUTES0102"]);
    expect(gone.uri).toMatch(/\/api\/v2\/trash\//);
  });

  it("reads an element under its structure, refused under another", async () => {
    expect((await admin.elements.read("ART_HELLO", { structure: "ARTICLE" })).properties.name).toBe("ART_HELLO");
    const wrong = await refusal(admin.elements.read("ART_HELLO", { structure: "AUTHOR" }));
    expect(wrong.status).toBe(404);
  });
});

describe("structures and enumerates", () => {
  it("lists the structures the caller may view, with their counts", async () => {
    const structures = await alice.structures.list();
    const article = structures.find((structure) => structure.name === "ARTICLE");
    expect(article).toMatchObject({ uri: "/api/v2/smart-structures/ARTICLE", parent: null, counts: { alive: expect.any(Number), deleted: expect.any(Number) } });
    expect(article!.counts.alive).toBeGreaterThan(0);
    expect(structures.find((structure) => structure.name === "REPORT")?.parent).toBe("SEARCH");
  });

  it("reads a structure's fields", async () => {
    const article = await admin.structures.read("ARTICLE");
    expect(article.properties.name).toBe("ARTICLE");
    expect(article.fields.ar_title).toMatchObject({ type: "text", needed: true });
  });

  it("reads an enumerate, by name and through its field, filtered", async () => {
    expect((await admin.enumerates.read("LANGUAGES")).map((item) => item.key)).toEqual(["en", "fr"]);
    const items = await admin.enumerates.ofField("ARTICLE", "ar_category", { keyword: "sp", operator: "startswith" });
    expect(items.map((item) => item.key)).toEqual(["space"]);
  });
});

describe("revisions, history and the trash", () => {
  it("lists and reads revisions and the history; lists, reads and restores from the trash", async () => {
    const element = await alice.elements.create<Author>("AUTHOR", { au_name: "Ada" });
    const id = element.properties.initid;
    const revisions = await admin.revisions.list<Author>(id);
    expect(revisions.items.map((item) => item.properties.revision)).toEqual([0]);
    expect((await admin.revisions.read<Author>(id, 0)).values.au_name).toBe("Ada");
    const history = await admin.revisions.history(id);
    expect(history.entries[0]!.messages.map((message) => message.code)).toContain("CREATE");
    await admin.elements.delete(id);
    const trash = await admin.trash.list({ filter: { field: "initid", operator: "eq", value: id } });
    expect(trash.items.map((item) => item.properties.initid)).toEqual([id]);
    expect((await admin.trash.read<Author>(id)).values.au_name).toBe("Ada");
    expect((await admin.trash.revisions(id)).items).toHaveLength(1);
    expect((await admin.trash.revision<Author>(id, 0)).values.au_name).toBe("Ada");
    expect((await admin.trash.history(id)).entries.length).toBeGreaterThan(0);
    const restored = await admin.trash.restore<Author>(id);
    expect(restored.properties.status).toBe("alive");
    expect((await admin.elements.read<Author>(id)).values.au_name).toBe("Ada");
    const notDeleted = await refusal(admin.trash.restore(id));
    expect(notDeleted.status).toBe(400);
  });
});

describe("lifecycle", () => {
  it("lists and reads states and transitions, runs a transition and changes a state", async () => {
    const article = await alice.elements.create<Article>("ARTICLE", { ar_title: "Workflow" });
    const id = article.properties.initid;
    const states = await alice.lifecycle.states<Article>(id);
    expect(states.map((state) => state.id)).toEqual(["review"]);
    expect((await alice.lifecycle.state<Article>(id, "draft")).isCurrentState).toBe(true);
    const transitions = await alice.lifecycle.transitions<Article>(id);
    expect(transitions.find((transition) => transition.id === "submit")?.valid).toBe(true);
    expect((await alice.lifecycle.transition<Article>(id, "publish")).askAttributes.map((parameter) => parameter.id)).toContain("pub_date");
    expect((await alice.lifecycle.run<Article>(id, "submit", { comment: "ready" })).id).toBe("review");
    expect((await alice.lifecycle.changeState<Article>(id, "published", { parameters: { pub_date: "2026-01-01" } })).id).toBe("published");
    expect((await alice.elements.read<Article>(id)).properties.state?.reference).toBe("published");
    const invalid = await refusal(alice.lifecycle.run<Article>(id, "submit"));
    expect([invalid.status, invalid.code]).toEqual([404, "CRUD0235"]);
  });
});

describe("files and images", () => {
  it("uploads a Blob to a file field and downloads it again", async () => {
    const bytes = new TextEncoder().encode("Le communiqué, en entier.\n");
    const article = await alice.elements.update<Article>("ART_CLIMATE_2024", { ar_attachment: new File([bytes], "communiqué.txt", { type: "text/plain" }), ar_words: 7 });
    expect(article.values.ar_words).toBe(7);
    expect(article.display.ar_attachment).toBe("communiqué.txt");
    const file = await alice.files.download("ART_CLIMATE_2024", "ar_attachment");
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(bytes);
    expect(file.fileName).toBe("communiqué.txt");
    expect(file.type).toMatch(/^text\/plain/);
    const past = await alice.files.download("ART_HELLO", "ar_attachment", { revision: 0 });
    expect(past.fileName).toBe("press-release.txt");
    const none = await refusal(alice.files.download("ART_HELLO", "ar_title"));
    expect(none.status).toBe(400);
  });

  it("reads images: an asset resized, a recorded image, the image of a field", async () => {
    const asset = await admin.images.asset("article.png", { size: "24x24c" });
    expect(asset.type).toBe("image/png");
    const hello = await admin.elements.read<Article>("ART_HELLO");
    const vaultId = /\|(\d+)\|/.exec(hello.values.ar_cover ?? "")?.[1];
    expect((await admin.images.recorded(`${vaultId}.png`, { size: "16" })).type).toBe("image/png");
    expect((await admin.images.recorded(`${vaultId}`)).blob.size).toBeGreaterThan(0);
    expect((await admin.images.ofField("ART_HELLO", "ar_cover", "32x32c")).type).toBe("image/png");
    const missing = await refusal(admin.images.asset("nothing-here.png"));
    expect(missing.status).toBe(404);
  });
});

describe("full-text search", () => {
  it("searches a domain, and administers the domains", async () => {
    const domains = await admin.fullsearch.domains();
    const domain = domains[0]!.name;
    await admin.fullsearch.reindex();
    const hits = await admin.fullsearch.search<Article>(domain, "galaxies", { count: true });
    expect(hits.items.length).toBeGreaterThan(0);
    expect(hits.items.map((hit) => hit.highlights).join(" ")).toMatch(/\[\[\[/);
    const refused = await refusal(alice.fullsearch.domains());
    expect(refused.status).toBe(403);
  });
});

describe("folders and saved searches", () => {
  it("lists folders and their content, puts an element in and takes it out", async () => {
    const folders = await admin.folders.list();
    expect(folders.items.map((item) => item.properties.name)).toContain("FLD_ASTRONOMY");
    const mine = await alice.elements.create<Dir>("DIR", { ba_title: "Alice's reading" });
    await alice.folders.add(mine.properties.initid, "ART_HELLO");
    const content = await alice.folders.content<Article>(mine.properties.initid, { fields: ["ar_title"], count: true });
    expect(content.collection.title).toBe("Alice's reading");
    expect(content.items.map((item) => item.values.ar_title)).toEqual([(await alice.elements.read<Article>("ART_HELLO")).values.ar_title]);
    await alice.folders.remove(mine.properties.initid, "ART_HELLO");
    expect((await alice.folders.content(mine.properties.initid)).items).toEqual([]);
    const notIn = await refusal(alice.folders.remove(mine.properties.initid, "ART_HELLO"));
    expect([notIn.status, notIn.code]).toEqual([404, "ROUTES0100"]);
  });

  it("lists saved searches and runs one, with the caller's filter added", async () => {
    const search = await admin.elements.create<Search>("SEARCH", {
      ba_title: "Drafts", se_famid: "ARTICLE", se_filter: JSON.stringify({ field: "state", operator: "eq", value: "draft" }),
    });
    expect((await admin.searches.list()).items.map((item) => item.properties.initid)).toContain(search.properties.initid);
    const drafts = await admin.searches.run<Article>(search.properties.initid, { fields: ["ar_category"], filter: { field: "ar_category", operator: "eq", value: "ai" }, count: true });
    expect(drafts.collection.title).toBe("Drafts");
    for (const item of drafts.items) expect(item.values.ar_category).toBe("ai");
    expect(drafts.total).toBe(drafts.items.length);
  });
});

describe("events", () => {
  it("reads the log by position, and follows the stream, resumed with Last-Event-ID", async () => {
    const { last } = await admin.events.list({ after: 0, slice: 1000 });
    let position = last;
    for (let page = await admin.events.list({ after: position }); page.last !== position; page = await admin.events.list({ after: position })) position = page.last;
    const controller = new AbortController();
    const stream = admin.events.stream({ after: position, types: ["element.updated"], signal: controller.signal });
    const seen: LineageEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (seen.length === 2) break;
      }
    })();
    await alice.elements.update<Article>("ART_HELLO", { ar_words: 421 });
    await alice.elements.update<Article>("ART_HELLO", { ar_words: 422 });
    await reading;
    expect(seen.map((event) => event.changes?.ar_words?.after)).toEqual([421, 422]);
    expect(stream.lastEventId).toBe(String(seen[1]!.seq));
    // Resumed after the first: the second comes again, and nothing before it.
    const resumed = admin.events.stream({ lastEventId: String(seen[0]!.seq), types: ["element.updated"] });
    for await (const event of resumed) {
      expect(event.seq).toBe(seen[1]!.seq);
      break;
    }
    const bad = await refusal(admin.events.list({ types: ["element.nothing" as "element.created"] }));
    expect([bad.status, bad.code]).toEqual([400, "EVENT0400"]);
  });
});

describe("the event stream's reconnection", () => {
  it("connects again after a dropped connection, with Last-Event-ID: no event lost, none twice", async () => {
    const { last } = await admin.events.list({ after: 0, slice: 1000 });
    let position = last;
    for (let page = await admin.events.list({ after: position }); page.last !== position; page = await admin.events.list({ after: position })) position = page.last;
    const resumedWith: (string | null)[] = [];
    // The real fetch, whose first stream is cut by this side once it has carried one event.
    const dropping: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes("/api/v2/events/stream")) return response;
      resumedWith.push(new Headers(init?.headers).get("last-event-id"));
      if (resumedWith.length > 1) return response;
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let carried = "";
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          carried += decoder.decode(value, { stream: true });
          // A message with data, ended by its blank line (its id: and event: lines in any order).
          if (/(^|\n)data:[^\n]*\n([^\n]+\n)*\n/.test(carried)) {
            await reader.cancel();
            controller.close();
          }
        },
      });
      return new Response(cut, { status: response.status, headers: response.headers });
    };
    const client = createLineageClient({ baseUrl: live.url, auth: { type: "basic", login: "admin", password: "admin" }, fetch: dropping });
    const stream = client.events.stream({ after: position, types: ["element.updated"], retryMs: 10 });
    const seen: LineageEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (seen.length === 3) break;
      }
    })();
    // One event on the first connection, then two more once it is cut.
    await alice.elements.update<Article>("ART_FILM_FESTIVAL", { ar_words: 501 });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const words of [502, 503]) await alice.elements.update<Article>("ART_FILM_FESTIVAL", { ar_words: words });
    await reading;
    expect(seen.map((event) => event.changes?.ar_words?.after)).toEqual([501, 502, 503]);
    expect(resumedWith.length).toBeGreaterThanOrEqual(2);
    expect(resumedWith[0]).toBeNull();
    expect(resumedWith[1]).toBe(String(seen[0]!.seq));
  });
});

describe("the caller's account and locks", () => {
  it("reads who the client is logged in as", async () => {
    expect(await alice.account.current()).toMatchObject({ login: "alice", locale: "fr", isAdmin: false });
    expect((await admin.account.current()).isAdmin).toBe(true);
  });

  it("takes a lock, which others see and cannot take, and releases it", async () => {
    expect(await alice.locks.read("ART_SPIRAL_GALAXIES")).toMatchObject({ lock: null, readOnly: false });
    const taken = await alice.locks.take("ART_SPIRAL_GALAXIES", "permanent");
    expect(taken.lock).toMatchObject({ isMyLock: true, temporary: false });
    const seen = await admin.locks.read("ART_SPIRAL_GALAXIES", "permanent", { structure: "ARTICLE" });
    expect(seen.lock).toMatchObject({ isMyLock: false, lockedBy: { title: expect.any(String) } });
    expect((await refusal(admin.locks.take("ART_SPIRAL_GALAXIES", "temporary"))).code).toBe("CRUD0231");
    expect((await alice.locks.release("ART_SPIRAL_GALAXIES")).lock).toBeNull();
    expect((await admin.locks.read("ART_SPIRAL_GALAXIES")).lock).toBeNull();
  });
});

describe("tokens and dashboards", () => {
  it("lists and revokes tokens", async () => {
    const token = await live.seed.platform.tokens.create("carol", ["GET /api/v2/*"], { expiration: 3600, oneshot: false, description: "to revoke" });
    const listed = await admin.tokens.list();
    const entry = listed.find((item) => item.description === "to revoke");
    expect(entry).toMatchObject({ login: "carol", expired: false });
    await admin.tokens.revoke(entry!.id);
    expect((await admin.tokens.list()).some((item) => item.id === entry!.id)).toBe(false);
    const revoked = await refusal(createLineageClient({ baseUrl: live.url, auth: { type: "token", token } }).elements.list());
    expect(revoked.status).toBe(401);
    const notAdmin = await refusal(alice.tokens.list());
    expect(notAdmin.status).toBe(403);
  });

  it("asks for dashboards: without a dashboard server, the typed 500 DASH0100", async () => {
    const error = await refusal(admin.dashboards.list());
    expect([error.status, error.code]).toEqual([500, "DASH0100"]);
  });
});
