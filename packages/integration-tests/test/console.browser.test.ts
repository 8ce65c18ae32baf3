import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type DashboardServer, type Platform, type Store } from "@lineage/core";
import { createSupersetServer } from "@lineage/adapter-superset";
import { fakeDashboard, startFakeSuperset, type FakeSuperset } from "@lineage/adapter-superset/testing";
import { lifecyclePlatform } from "@lineage/core/testing";
import { folder } from "@lineage/core/testing";
import { SEARCH_FILES, searchBundle } from "@lineage/core/testing";
import { sessionLogins } from "../src/browser-login.ts";
import { startLiveServer, withDashboards, withTwin, type LiveServer } from "../src/live-server.ts";

// Issue 21: the console in a real browser, without JavaScript, for an admin (English), alice
// (French, group newsroom), who never sees the field of visibility I, and bob (role reader). One
// server for all: the seeded platform with the review lifecycle (parameters, guards) and two
// dashboards registered, read from a stand-in Superset.

/** The review lifecycle's platform, a structure NOTE with a file and an image, dashboards "sales" (for readers) and "staff" (for editors). */
async function consoleSeed(store: Store, dashboards: DashboardServer) {
  const seed = withDashboards(await lifecyclePlatform(store), dashboards);
  await store.transaction((tx) => tx.catalog.saveStructure({
    name: "NOTE", title: "Note", icon: "note.png", titleField: "no_title",
    fields: [{ id: "no_title", type: "text", label: "Title", needed: true }, { id: "no_file", type: "file", label: "Attachment" }, { id: "no_image", type: "image", label: "Picture" }],
  }));
  await store.catalog.saveDashboard({ slug: "sales", uuid: fakeDashboard(1, "Sales").uuid, roles: ["reader"] });
  await store.catalog.saveDashboard({ slug: "staff", uuid: fakeDashboard(3, "Staff").uuid, roles: ["editor"] });
  return seed;
}

let live: LiveServer<Awaited<ReturnType<typeof consoleSeed>>>;
let superset: FakeSuperset;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  superset = await startFakeSuperset([fakeDashboard(1, "Sales"), fakeDashboard(3, "Staff", { published: false })]);
  const dashboards = createSupersetServer({ url: superset.url, username: "lineage", password: "superset-pw", cacheMs: 0, timeoutMs: 1000 });
  live = await startLiveServer((store) => consoleSeed(store, dashboards), { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
  await superset?.close();
});

const login = sessionLogins(() => browser, () => baseUrl);
/** A browser without JavaScript, logged in (through the form the first time, which the console asks for), on the console's first page. */
const loggedIn = (name: string, width = 1280) => login(name, { javaScriptEnabled: false, viewport: { width, height: 900 } });

const rowsOf = (page: Page) => page.locator("main table tbody tr").allInnerTexts();
/** The titles of a list's rows (after the selection's checkbox, when there is one). */
const titlesOf = async (page: Page) => (await rowsOf(page)).map((row) => row.replace(/^\s+/, "").split("\t")[0]);

describe("the console, read", () => {
  it("lists the structures an admin may view with their counts, then a structure's elements, sorted both ways", async () => {
    const { context, page } = await loggedIn("admin");
    // After login, the home page.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Home");
    expect(await page.locator("section[aria-labelledby=recent] li").count()).toBeGreaterThan(0);
    await page.goto(`${baseUrl}/console/structures`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Structures");
    const rows = await rowsOf(page);
    expect(rows.map((row) => row.split("\t").map((cell) => cell.trim()))).toEqual([
      ["Article", "ARTICLE", "3", "0"],
      ["Author", "AUTHOR", "1", "0"],
      // The system structures, in every store.
      ["Folder", "DIR", "0", "0"],
      ["Note", "NOTE", "0", "0"],
      ["Report", "REPORT", "0", "0"],
      ["Search", "SEARCH", "0", "0"],
    ]);

    await page.getByRole("link", { name: "Article" }).click();
    expect(await titlesOf(page)).toEqual(["Apple pie", "Hello", "Zebra crossing"]);
    await page.getByRole("link", { name: "Sort by Title" }).click();
    expect(await titlesOf(page)).toEqual(["Zebra crossing", "Hello", "Apple pie"]);
    expect(await page.locator("th[aria-sort]").getAttribute("aria-sort")).toBe("descending");

    // A field as a column, chosen with the form.
    await page.getByText("Columns", { exact: true }).first().click();
    await page.getByRole("checkbox", { name: "ar_words" }).check();
    await page.getByRole("button", { name: "Show" }).click();
    expect(new URL(page.url()).searchParams.getAll("columns")).toEqual(["ar_words"]);
    expect(await page.locator("thead th").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("ar_words")]));
    await context.close();
  });

  it("shows one element: its fields by type, its history, links to what it names", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Hello");
    const fields = await page.locator("#fields + dl, section[aria-labelledby=fields] dl").first().innerText();
    expect(fields).toContain("Technology");
    expect(fields).toContain("03/04/2026");
    expect(fields).toContain("https://example.com");
    expect(fields).not.toContain("hidden");
    await page.getByRole("link", { name: "Ada Lovelace" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
    expect(await page.locator("ol.timeline li").count()).toBeGreaterThan(0);
    await context.close();
  });

  it("speaks French to alice, shows only what she may view, and answers a refusal as a page", async () => {
    const { context, page } = await loggedIn("alice");
    expect(await page.locator("html").getAttribute("lang")).toBe("fr");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Accueil");
    await page.goto(`${baseUrl}/console/structures`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Structures");
    // The system structures too: she may make folders and searches of her own.
    expect((await rowsOf(page)).map((row) => row.split("\t")[1]?.trim())).toEqual(["ARTICLE", "AUTHOR", "DIR", "NOTE", "REPORT", "SEARCH"]);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    expect(await page.locator("main").innerText()).toContain("Technologie");
    expect(await page.locator("main").innerText()).toContain("04/03/2026");
    expect(await page.locator("main").innerText()).not.toContain("hidden");
    const refused = await page.goto(`${baseUrl}/console/elements/NO_SUCH_ELEMENT`);
    expect(refused?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).not.toBe("");
    const bad = await page.goto(`${baseUrl}/console/elements?structure=ARTICLE&orderBy=nosuchkey:asc`);
    expect(bad?.status()).toBe(400);
    await context.close();
  });

  it("lists the trash, and finds elements by their words, with highlights", async () => {
    await live.seed.platform.elements.delete(await live.seed.principal("admin"), "ART_ZEBRA");
    const { context, page } = await loggedIn("admin");
    await page.getByRole("link", { name: "Trash" }).click();
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toEqual(["Zebra crossing"]);
    await page.getByRole("link", { name: "Search" }).click();
    expect(await page.locator("main").innerText()).toContain("No search domain is configured.");
    await context.close();
  });

  it("searches a domain and shows each result with its highlighted words; the administration shows the domains", async () => {
    /** The search bundle's world, its users given passwords `<login>-pw`. */
    const seedSearch = async (store: Store) => {
      const hasher = createScryptPasswordHasher({ N: 1024 });
      const platform: Platform = createPlatform({ store, hasher });
      const bundle = searchBundle();
      for (const user of bundle.accounts!.users!) user.password = `${user.login}-pw`;
      await platform.bundles.import(bundle, { readFile: folder(SEARCH_FILES) });
      await platform.fullsearch.engine.start();
      return withTwin({ platform, store, hasher });
    };
    const searching = await startLiveServer(seedSearch, { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${searching.api.baseUrl}/console/search`);
    await page.getByLabel("Login").fill("reader");
    await page.getByLabel("Password").fill("reader-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByLabel("Words").fill("volcano");
    await page.getByRole("button", { name: "Search" }).click();
    expect(await page.getByRole("status").textContent()).toBe("2 results");
    expect(await page.locator("main ol li a").allInnerTexts()).toEqual(["Volcano eruption", "Weekly digest"]);
    expect((await page.locator("main ol li mark").allInnerTexts()).map((word) => word.toLowerCase())).toContain("volcano");
    // The secret structure's element matches too, but the reader may not view it.
    expect(await page.locator("main").innerText()).not.toContain("Secret volcano base");
    await context.close();
    // The administration shows the domains' state, and reindexes what is outdated.
    const admin = await browser.newContext({ javaScriptEnabled: false });
    const adminPage = await admin.newPage();
    await adminPage.goto(`${searching.api.baseUrl}/console/admin`);
    await adminPage.getByLabel("Login").fill("admin");
    await adminPage.getByLabel("Password").fill("admin-pw");
    await adminPage.getByRole("button", { name: "Log in" }).click();
    const domains = adminPage.locator("section[aria-labelledby=search-domains] tbody tr");
    expect(await domains.count()).toBeGreaterThan(0);
    expect(await domains.first().innerText()).toMatch(/\t\d+\t\d+\t\d+$/);
    await adminPage.getByRole("button", { name: "Reindex what is outdated" }).click();
    expect(await adminPage.getByRole("status").textContent()).toMatch(/^\d+ elements? reindexed\.$/);
    await admin.close();
    // The engine reads the store in the background: stopped before the store closes.
    await searching.seed.platform.fullsearch.engine.stop();
    await searching.close();
  });

  it("is usable on a phone: nothing wider than the screen but the tables' own scroll boxes", async () => {
    const { context, page } = await loggedIn("admin", 375);
    for (const path of ["elements/ART_HELLO", "elements/ART_HELLO/edit", "elements/ART_HELLO/revisions", "elements/ART_HELLO/transitions/submit", "admin", "dashboards"]) {
      await page.goto(`${baseUrl}/console/${path}`);
      expect([path, await page.evaluate<number>("document.documentElement.scrollWidth")]).toEqual([path, expect.toSatisfy((width: number) => width <= 375)]);
    }
    await context.close();
  });
});

describe("the console, write", () => {
  it("edits an element: a refused value is shown at its field with what was typed kept, then saved", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    await page.getByRole("link", { name: "Edit" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Edit Hello");
    // Read-only and invisible fields are no inputs; the invisible one is not even in the page.
    expect(await page.locator("#f_ar_stamp").count()).toBe(0);
    expect(await page.content()).not.toContain("ar_secret");
    expect(await page.content()).not.toContain('value="hidden"');
    await page.getByLabel("Title").fill("Hello again");
    await page.getByLabel("ar_words").fill("12.5");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.locator("#f_ar_words-error").textContent()).toContain("is not an integer");
    expect(await page.getByLabel("ar_words").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Title").inputValue()).toBe("Hello again");
    await page.getByLabel("ar_words").fill("13");
    await page.getByLabel("ar_category").selectOption({ label: "Food" });
    await page.getByRole("button", { name: "Save" }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/elements\/\d+$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Hello again");
    expect(await page.locator("main").innerText()).toContain("Food");
    await context.close();
  });

  it("warns when someone else saved the element meanwhile, keeping what was typed", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/AUTHOR_ADA/edit`);
    await page.getByLabel("au_name").fill("Ada, mine");
    // Another person saves first.
    await live.seed.platform.elements.update(await live.seed.principal("admin"), "AUTHOR_ADA", { values: { au_name: "Ada Lovelace" } });
    const [answer] = await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.getByRole("button", { name: "Save" }).click()]);
    expect(answer.status()).toBe(412);
    expect(await page.getByRole("alert").textContent()).toContain("Someone else saved this element");
    expect(await page.getByLabel("au_name").inputValue()).toBe("Ada, mine");
    await context.close();
  });

  it("creates an element from its structure's list: a needed field left empty is refused at the field", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    await page.getByRole("link", { name: "New element" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("New Article");
    expect(await page.getByLabel("Title").getAttribute("aria-required")).toBe("true");
    await page.getByLabel("ar_words").fill("7");
    await page.getByRole("button", { name: "Create" }).click();
    expect(await page.locator("#f_ar_title-error").textContent()).toContain("is needed");
    expect(await page.getByLabel("ar_words").inputValue()).toBe("7");
    await page.getByLabel("Title").fill("Made in the console");
    await page.getByRole("button", { name: "Create" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Made in the console");
    expect(await page.locator("section[aria-labelledby=history] ol.timeline").innerText()).toContain("Created by API");
    await context.close();
  });

  it("deletes an element and restores it from the trash", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/AUTHOR_ADA`);
    // Delete asks first.
    await page.getByRole("link", { name: "Delete" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Delete Ada Lovelace?");
    await page.getByRole("button", { name: "Move to the trash" }).click();
    expect(new URL(page.url()).pathname).toBe("/console/elements");
    expect(await page.getByRole("status").first().textContent()).toContain("Ada Lovelace is moved to the trash.");
    await page.getByRole("link", { name: "Trash" }).click();
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toContain("Ada Lovelace");
    await page.getByRole("button", { name: "Restore Ada Lovelace" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
    expect(await page.getByRole("status").first().textContent()).toBe("Ada Lovelace is restored.");
    await context.close();
  });

  it("refuses a forged post (no form token) and shows bob no edit or delete button", async () => {
    const forged = await fetch(`${baseUrl}/console/elements/ART_HELLO/delete`, {
      method: "POST", headers: { authorization: live.api.basic("admin", "admin-pw"), "content-type": "application/x-www-form-urlencoded" }, body: "csrf=guess",
    });
    expect(forged.status).toBe(403);
    const { context, page } = await loggedIn("bob");
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    expect(await page.getByRole("link", { name: "New element" }).count()).toBe(0);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    expect(await page.getByRole("link", { name: "Delete" }).count()).toBe(0);
    const form = await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    expect(form?.status()).toBe(403);
    await context.close();
  });
});

describe("the console, lifecycle and revisions", () => {
  it("runs a transition with its comment, then one with parameters: refused at its field, by its guard, then run", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    const lifecycle = page.locator("section[aria-labelledby=lifecycle]");
    // "Lock" names a hook that is not registered: offered to no one, its refusal said.
    expect(await lifecycle.getByRole("button").allInnerTexts()).toEqual(["Submit"]);
    expect(await lifecycle.locator(".refused").innerText()).toContain('Hook "notRegistered" (m1) of transition "lock" is not registered');
    await lifecycle.getByRole("button", { name: "Submit" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/^Submit: Hello/);
    await page.getByLabel("Comment").fill("Ready for review");
    await page.locator("main").getByRole("button", { name: "Submit" }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/elements\/\d+$/);
    expect(await page.locator("section[aria-labelledby=properties]").innerText()).toContain("Review");
    expect(await page.locator("section[aria-labelledby=history] ol.timeline").innerText()).toContain("Ready for review");
    // The guard (hook m0) of "reject" refuses: its message, and no button.
    expect(await lifecycle.locator(".refused").innerText()).toContain("Rejections are closed this week");
    expect(await lifecycle.getByRole("button").allInnerTexts()).toEqual(["Publish"]);

    await lifecycle.getByRole("button", { name: "Publish" }).click();
    expect(await page.getByLabel("Date").getAttribute("aria-required")).toBe("true");
    const channels = page.getByRole("group", { name: "Channels" });
    await channels.getByLabel("Food").check();
    await channels.getByLabel("Technology").check();
    await page.locator("main").getByRole("button", { name: "Publish" }).click();
    expect(await page.locator("#f_pub_date-error").textContent()).toContain("is needed");
    await page.getByLabel("Date").fill("1999-12-31");
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.locator("main").getByRole("button", { name: "Publish" }).click()]);
    expect(refused.status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toBe("Too old to publish");
    expect(await page.getByLabel("Date").inputValue()).toBe("1999-12-31");
    expect(await channels.locator("input:checked").evaluateAll((boxes) => boxes.map((box) => box.getAttribute("value")))).toEqual(["tech", "food"]);
    await page.getByLabel("Date").fill("2026-05-01");
    await page.locator("main").getByRole("button", { name: "Publish" }).click();
    expect(await page.locator("section[aria-labelledby=properties]").innerText()).toContain("Published");
    // bob may read the element, not run its transitions.
    const bob = await loggedIn("bob");
    await bob.page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    expect(await bob.page.locator("section[aria-labelledby=lifecycle]").count()).toBe(0);
    const form = await bob.page.goto(`${baseUrl}/console/elements/ART_HELLO/transitions/retract`);
    expect(form?.status()).toBe(403);
    expect(await bob.page.getByRole("alert").textContent()).toBe('You may not run "Retract" on this element in its state.');
    await bob.context.close();
    await context.close();
  });

  it("compares two revisions side by side, the fields that differ marked", async () => {
    const admin = await live.seed.principal("admin");
    const apple = String(live.seed.apple.initid);
    await live.seed.platform.lifecycle.runTransition(admin, apple, "submit", { comment: "Check the recipe" });
    await live.seed.platform.elements.update(admin, apple, { values: { ar_words: 300 } });
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/${apple}`);
    await page.getByRole("link", { name: "Revisions" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Revisions of Apple pie");
    expect(await page.locator("table").first().locator("tbody tr").count()).toBe(2);
    const differing = await page.locator("table.comparison tr.differs th").allInnerTexts();
    expect(differing.map((label) => label.replace(/\s*differs$/, ""))).toEqual(["State", "ar_words"]);
    expect(await page.locator("table.comparison tr.differs").first().innerText()).toMatch(/Writing\s+Review/);
    expect(await page.getByRole("status").textContent()).toBe("2 fields differ.");
    // The same revision on both sides: nothing differs.
    await page.getByLabel("with revision").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Compare" }).click();
    expect(await page.getByRole("status").textContent()).toBe("No field differs.");
    await context.close();
  });

  it("edits lists and arrays, and shows an HTML text sanitised", async () => {
    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.update(admin, "ART_HELLO", {
      values: { ar_body: '<h1>Big</h1><p>Safe <strong>bold</strong> <a href="javascript:alert(1)">bad</a><img src="x" onerror="alert(1)"></p><script>alert(2)</script>' },
    });
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    // A multiple enum is checkboxes keeping the enumerate's tree: the child under its parent.
    const tags = page.getByRole("group", { name: "ar_tags" });
    expect(await tags.locator("ul.tree > li > ul.tree").getByLabel("Artificial intelligence").isChecked()).toBe(true);
    await tags.getByLabel("Technology").uncheck();
    await tags.getByLabel("Artificial intelligence").uncheck();
    await tags.getByLabel("Food").check();
    // The array's blank row adds one.
    await page.getByLabel("ar_link_url 3").fill("https://example.net");
    await page.getByLabel("ar_link_rank 3").fill("3");
    await page.getByLabel("ar_link_url 1").fill("https://example.org/first");
    await page.getByRole("button", { name: "Save" }).click();
    const fields = page.locator("section[aria-labelledby=fields]");
    expect(await fields.locator("table tbody tr").allInnerTexts()).toEqual(["https://example.org/first\t1", "https://example.com\t2", "https://example.net\t3"]);
    expect(await fields.innerText()).toContain("Food");
    expect(await fields.innerText()).not.toContain("Technology");
    const body = fields.locator(".html");
    expect(await body.locator("strong").textContent()).toBe("bold");
    expect(await body.locator("h2").textContent()).toBe("Big");
    // Disarmed as the original's clean-up does it: no script element, no handler, no image, no javascript: link.
    expect(await body.innerHTML()).not.toMatch(/<script|onerror|<img|javascript:/);
    await context.close();
  });
});

/** A PNG of one pixel. */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

describe("the console, files", () => {
  it("uploads a file and an image through the form: a download and a thumbnail on the element's page", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/structures/NOTE/new`);
    await page.getByLabel("Title").fill("Minutes");
    await page.getByLabel("Attachment").setInputFiles({ name: "minutes.txt", mimeType: "text/plain", buffer: Buffer.from("We met.") });
    await page.getByLabel("Picture").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PIXEL });
    await page.getByRole("button", { name: "Create" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Minutes");
    const download = page.getByRole("link", { name: "minutes.txt" });
    expect(await download.getAttribute("download")).not.toBeNull();
    const file = await context.request.get(new URL((await download.getAttribute("href"))!, baseUrl).href);
    expect(await file.text()).toBe("We met.");
    expect(await page.locator("img.thumb").getAttribute("src")).toMatch(/^\/api\/v2\/images\/recorded\/sizes\/48\/.+\.png$/);
    // Saving again without choosing files keeps them.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Title").fill("Minutes, read");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.getByRole("link", { name: "minutes.txt" }).count()).toBe(1);
    await context.close();
  });
});

describe("the console, dashboards and administration", () => {
  it("lists the person's dashboards, each opening in the dashboard server", async () => {
    const { context, page } = await loggedIn("bob");
    await page.getByRole("link", { name: "Dashboards" }).click();
    const link = page.locator("main table").getByRole("link");
    expect(await link.allInnerTexts()).toEqual(["Sales"]);
    expect(await link.getAttribute("href")).toBe(`${superset.url}/superset/dashboard/sales/`);
    await context.close();
    const alice = await loggedIn("alice");
    await alice.page.goto(`${baseUrl}/console/dashboards`);
    expect(await alice.page.getByRole("heading", { level: 1 }).textContent()).toBe("Tableaux de bord");
    expect(await alice.page.locator("main table tbody tr").allInnerTexts()).toEqual([expect.stringMatching(/^Staff\tnon\t/)]);
    await alice.context.close();
  });

  it("lets an administrator create a token, shows its secret once, and revoke it", async () => {
    const { context, page } = await loggedIn("admin");
    await page.getByRole("link", { name: "Administration" }).click();
    const users = page.locator("section[aria-labelledby=users] tbody tr");
    expect(await users.filter({ hasText: "alice" }).innerText()).toContain("newsroom");
    expect(await users.filter({ hasText: "bob" }).innerText()).toContain("reader");
    expect(await page.locator("section[aria-labelledby=search-domains]").innerText()).toContain("No search domain is configured.");
    await page.getByLabel("Login").selectOption("bob");
    await page.getByLabel("Routes").fill("GET /api/v2/smart-elements/*");
    await page.getByLabel("Expires").selectOption({ label: "in an hour" });
    await page.getByLabel("Description").fill("weekly report");
    const [created] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: "Create the token" }).click()]);
    expect(created.status()).toBe(201);
    const secret = await page.getByLabel("Its secret").inputValue();
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    const granted = await fetch(`${baseUrl}/api/v2/smart-elements/ART_HELLO.json`, { headers: { authorization: `Token ${secret}` } });
    expect(granted.status).toBe(200);
    // Shown once: the page read again lists the token, never its secret.
    await page.goto(`${baseUrl}/console/admin`);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator("section[aria-labelledby=tokens] tbody tr");
    expect(await row.innerText()).toContain("weekly report");
    await row.getByRole("button", { name: /^Revoke/ }).click();
    expect(await page.locator("section[aria-labelledby=tokens]").innerText()).toContain("No access token.");
    expect((await fetch(`${baseUrl}/api/v2/smart-elements/ART_HELLO.json`, { headers: { authorization: `Token ${secret}` } })).status).toBe(401);
    await context.close();
  });

  it("gives others no administration, and refuses a forged administration post", async () => {
    const { context, page } = await loggedIn("bob");
    expect(await page.getByRole("link", { name: "Administration" }).count()).toBe(0);
    const refused = await page.goto(`${baseUrl}/console/admin`);
    expect(refused?.status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).not.toBe("");
    // bob's own session and form token: still not an administrator.
    const csrf = await page.locator("input[name=csrf]").first().inputValue();
    const posted = await context.request.post(`${baseUrl}/console/admin/tokens`, { form: { csrf, login: "bob", routes: "GET /api/v2/*", expiry: "-1" }, maxRedirects: 0 });
    expect(posted.status()).toBe(403);
    await context.close();
    // An administrator's session, without its form token: a forged post.
    const admin = await loggedIn("admin");
    const forged = await admin.context.request.post(`${baseUrl}/console/admin/tokens`, { form: { csrf: "guess", login: "bob", routes: "GET /api/v2/*", expiry: "-1" }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain("This form has expired or comes from another page");
    expect(await live.seed.store.tokens.list()).toEqual([]);
    await admin.context.close();
  });
});
