import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, importBundle, type Platform, type Store } from "@lineage/core";
import { seededPlatform } from "../../core/test/fixture.ts";
import { folder } from "../../core/test/bundle-test-helpers.ts";
import { SEARCH_FILES, searchBundle } from "../../core/test/search/search-fixture.ts";
import { startLiveServer, type LiveServer } from "./live-server.ts";

// Issue 21, first slice: the console's reading pages (structures, lists, one element, trash,
// search) in a real browser, without JavaScript, for an admin (English) and for alice (French,
// group newsroom), who never sees the field of visibility I.

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer(seededPlatform, { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

/** A browser without JavaScript, logged in through the form, on the console's first page. */
async function loggedIn(login: string, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/console/`);
  expect(new URL(page.url()).pathname).toBe("/login");
  await page.getByLabel("Login").fill(login);
  await page.getByLabel("Password").fill(`${login}-pw`);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(`${baseUrl}/console/`);
  return { context, page };
}

const rowsOf = (page: Page) => page.locator("main table tbody tr").allInnerTexts();

describe("the console, read", () => {
  it("lists the structures an admin may view with their counts, then a structure's elements, sorted both ways", async () => {
    const { context, page } = await loggedIn("admin");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Structures");
    const rows = await rowsOf(page);
    expect(rows.map((row) => row.split("\t").map((cell) => cell.trim()))).toEqual([
      ["Article", "ARTICLE", "3", "0"],
      ["Author", "AUTHOR", "1", "0"],
    ]);

    await page.getByRole("link", { name: "Article" }).click();
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toEqual(["Apple pie", "Hello", "Zebra crossing"]);
    await page.getByRole("link", { name: "Sort by Title" }).click();
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toEqual(["Zebra crossing", "Hello", "Apple pie"]);
    expect(await page.locator("th[aria-sort]").getAttribute("aria-sort")).toBe("descending");

    // A field as a column, chosen with the form.
    await page.getByLabel("ar_words").check();
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
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Structures");
    expect((await rowsOf(page)).map((row) => row.split("\t")[1]?.trim())).toEqual(["ARTICLE", "AUTHOR"]);
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
    await live.seed.platform.deleteElement(await live.seed.principal("admin"), "ART_ZEBRA");
    const { context, page } = await loggedIn("admin");
    await page.getByRole("link", { name: "Trash" }).click();
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toEqual(["Zebra crossing"]);
    await page.getByRole("link", { name: "Search" }).click();
    expect(await page.locator("main").innerText()).toContain("No search domain is configured.");
    await context.close();
  });

  it("searches a domain and shows each result with its highlighted words", async () => {
    /** The search bundle's world, its users given passwords `<login>-pw`. */
    const seedSearch = async (store: Store) => {
      const platform: Platform = createPlatform({ store, hasher: createScryptPasswordHasher({ N: 1024 }) });
      const bundle = searchBundle();
      for (const user of bundle.accounts!.users!) user.password = `${user.login}-pw`;
      await importBundle(platform, bundle, { readFile: folder(SEARCH_FILES) });
      await platform.fullsearch.engine.start();
      return { platform, store, twin: (other: Store) => createPlatform({ store: other, hasher: platform.hasher }) };
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
    await searching.close();
  });

  it("is usable on a phone: nothing wider than the screen but the tables' own scroll boxes", async () => {
    const { context, page } = await loggedIn("admin", 375);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(375);
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
    await live.seed.platform.updateElement(await live.seed.principal("admin"), "AUTHOR_ADA", { values: { au_name: "Ada Lovelace" } });
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
    expect(await page.locator("ol.timeline").innerText()).toContain("Created by API");
    await context.close();
  });

  it("deletes an element and restores it from the trash", async () => {
    const { context, page } = await loggedIn("admin");
    await page.goto(`${baseUrl}/console/elements/AUTHOR_ADA`);
    await page.getByRole("button", { name: "Delete" }).click();
    expect(new URL(page.url()).pathname).toBe("/console/trash");
    expect((await rowsOf(page)).map((row) => row.split("\t")[0])).toContain("Ada Lovelace");
    await page.getByRole("button", { name: "Restore Ada Lovelace" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
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
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    const form = await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    expect(form?.status()).toBe(403);
    await context.close();
  });
});
