import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { sessionLogins } from "../src/browser-login.ts";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// The console's lists and the feedback of its changes, in a real browser without JavaScript, at a
// desktop's width and a phone's: the filter bar (the API's own filter), the search box, totals and
// page numbers, saved views, folders, actions on selected rows; a message after each change, delete
// asked first and undone from its message, the trash's elements readable, refusals summed up.

let live: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer((store) => lifecyclePlatform(store), { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  // Twelve authors: more than a page of ten.
  const admin = await live.seed.principal("admin");
  for (let i = 1; i <= 12; i++) await live.seed.platform.elements.create(admin, { structure: "AUTHOR", values: { au_name: `Writer ${String(i).padStart(2, "0")}` } });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

const login = sessionLogins(() => browser, () => baseUrl);
/** A browser without JavaScript, logged in (through the form the first time), on the list of every element. */
const loggedIn = (name: string, width: number) => login(name, { javaScriptEnabled: false, viewport: { width, height: 900 } }, "/console/elements");

const titlesOf = async (page: Page) => (await page.locator("main table tbody tr").allInnerTexts()).map((row) => row.replace(/^\s+/, "").split("\t")[0]);
const status = (page: Page) => page.locator("main .flash").innerText();
const fitsWidth = async (page: Page, width: number) => expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);

describe.each([1280, 390])("the console's lists at %i px", (width) => {
  it("filters a structure's list by a field fitted to its type, as the API's filter does, and searches the titles", async () => {
    const { context, page } = await loggedIn("admin", width);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    expect(await page.locator("main p.total").innerText()).toBe("3 elements, 1 to 3 shown");
    await page.getByLabel("Field of condition 1").selectOption({ label: "ar_category" });
    await page.getByRole("button", { name: "Apply" }).first().click();
    // The value is now the enumerate's choices, by their label.
    const choices = await page.getByLabel("Value of condition 1").locator("option").allInnerTexts();
    expect(choices.filter(Boolean)).toEqual(["Artificial intelligence", "Food", "Technology"]);
    await page.getByLabel("Value of condition 1").selectOption({ label: "Food" });
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await titlesOf(page)).toEqual(["Apple pie"]);
    expect(await page.locator("main p.total").innerText()).toBe("1 element, 1 to 1 shown");
    // The same filter through the API answers the same.
    const api = await fetch(`${baseUrl}/api/v2/smart-structures/ARTICLE/smart-elements/?filter=${encodeURIComponent('{"field":"ar_category","operator":"eq","value":"food"}')}`,
      { headers: { authorization: live.api.basic("admin", "admin-pw") } });
    expect(((await api.json()) as { data: { documents: { properties: { title: string } }[] } }).data.documents.map((d) => d.properties.title)).toEqual(["Apple pie"]);
    // A relation's value is a choice of the elements it may name; a date's a date input.
    await page.getByLabel("Field of condition 2").selectOption({ label: "ar_author" });
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await page.getByLabel("Value of condition 2").locator("option").allInnerTexts()).toContain("Ada Lovelace");
    await page.getByLabel("Field of condition 2").selectOption({ label: "(remove this condition)" });
    await page.getByLabel("Field of condition 1").selectOption({ label: "(remove this condition)" });
    await page.getByLabel("Field of condition 1").selectOption({ label: "ar_date" });
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await page.getByLabel("Value of condition 1").getAttribute("type")).toBe("date");
    await page.getByLabel("Operator of condition 1").selectOption({ label: "is at least" });
    await page.getByLabel("Value of condition 1").fill("2026-01-01");
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await titlesOf(page)).toEqual(["Hello"]);
    // The search box: titles that contain the words.
    await page.getByRole("link", { name: "Clear the filters" }).click();
    await page.getByLabel("Search the titles").fill("zEb");
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await titlesOf(page)).toEqual(["Zebra crossing"]);
    await fitsWidth(page, width);
    await context.close();
  });

  it("shows the total and page numbers, in pages of the chosen size", async () => {
    const { context, page } = await loggedIn("admin", width);
    await page.goto(`${baseUrl}/console/elements?structure=AUTHOR`);
    await page.getByLabel("Per page").selectOption("10");
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await page.locator("main p.total").innerText()).toBe("13 elements, 1 to 10 shown");
    expect(await page.getByRole("navigation", { name: "Pages (2)" }).getByRole("link").allInnerTexts()).toEqual(["1", "2", "Next page"]);
    await page.getByRole("link", { name: "Page 2" }).click();
    expect(await titlesOf(page)).toEqual(["Writer 10", "Writer 11", "Writer 12"]);
    expect(await page.getByRole("link", { name: "Page 2" }).getAttribute("aria-current")).toBe("page");
    await fitsWidth(page, width);
    await context.close();
  });
});

describe("the console's saved views, folders and actions on selected rows", () => {
  it("saves a list as a view (a REPORT the API runs too) and opens it from the panel", async () => {
    const { context, page } = await loggedIn("alice", 1280);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE&f0=ar_category&o0=eq&v0=food&columns=ar_words`);
    await page.getByText("Enregistrer cette liste comme vue").click();
    await page.getByLabel("Nom de la vue").fill("Cuisine");
    await page.getByRole("button", { name: "Enregistrer la vue" }).click();
    expect(await status(page)).toBe("La vue « Cuisine » est enregistrée.");
    expect(await titlesOf(page)).toEqual(["Apple pie"]);
    expect(new URL(page.url()).searchParams.getAll("columns")).toEqual(["ar_words"]);
    const views = page.getByRole("complementary").locator("section[aria-labelledby=panel-views]");
    expect(await views.getByRole("link").allInnerTexts()).toEqual(["Cuisine"]);
    const view = new URL(page.url()).searchParams.get("view")!;
    // Sorted by a column or refiltered, the list stays the view's: its filter and columns kept.
    await page.getByRole("link", { name: "Trier par Titre" }).click();
    const sorted = new URL(page.url()).searchParams;
    expect([sorted.get("view"), sorted.get("orderBy"), sorted.getAll("columns")]).toEqual([view, "title:desc", ["ar_words"]]);
    expect(await titlesOf(page)).toEqual(["Apple pie"]);
    await page.getByLabel("Chercher dans les titres").fill("apple");
    await page.getByRole("button", { name: "Appliquer" }).first().click();
    expect(new URL(page.url()).searchParams.get("view")).toBe(view);
    expect(await titlesOf(page)).toEqual(["Apple pie"]);
    const run = await fetch(`${baseUrl}/api/v2/searches/${view}/smart-elements/`, { headers: { authorization: live.api.basic("alice", "alice-pw") } });
    expect(((await run.json()) as { data: { documents: { properties: { title: string } }[] } }).data.documents.map((d) => d.properties.title)).toEqual(["Apple pie"]);
    // Private: bob does not see it.
    const bob = await loggedIn("bob", 1280);
    expect(await bob.page.locator("section[aria-labelledby=panel-views]").innerText()).not.toContain("Cuisine");
    await bob.context.close();
    await context.close();
  });

  it("adds selected rows to a folder, lists the folder, removes one, runs a transition and moves one to the trash, undone", async () => {
    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.create(admin, { structure: "DIR", values: { ba_title: "Reading" } });
    const { context, page } = await loggedIn("admin", 390);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    await page.getByLabel("Select Hello").check();
    await page.getByLabel("Select Zebra crossing").check();
    await page.getByLabel("With the selected rows").selectOption({ label: "Add to Reading" });
    await page.getByRole("button", { name: "Apply", exact: true }).last().click();
    expect(await status(page)).toBe("Done for 2 elements.");
    // One live region: the message, not the total beside it.
    expect(await page.getByRole("status").count()).toBe(1);
    await page.locator("section[aria-labelledby=panel-folders]").getByRole("link", { name: "Reading" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Reading");
    expect(await titlesOf(page)).toEqual(["Hello", "Zebra crossing"]);
    await page.getByLabel("Select Zebra crossing").check();
    await page.getByLabel("With the selected rows").selectOption({ label: "Remove from this folder" });
    await page.getByRole("button", { name: "Apply", exact: true }).last().click();
    expect(await titlesOf(page)).toEqual(["Hello"]);

    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    await page.getByLabel("Select Apple pie").check();
    await page.getByLabel("With the selected rows").selectOption({ label: "Submit" });
    await page.getByRole("button", { name: "Apply", exact: true }).last().click();
    expect(await status(page)).toBe("Done for 1 element.");
    expect(await page.locator("main table tbody tr").filter({ hasText: "Apple pie" }).innerText()).toContain("Review");

    await page.getByLabel("Select Zebra crossing").check();
    await page.getByLabel("With the selected rows").selectOption({ label: "Move to the trash" });
    await page.getByRole("button", { name: "Apply", exact: true }).last().click();
    expect(await titlesOf(page)).toEqual(["Apple pie", "Hello"]);
    await page.locator("main .flash").getByRole("button", { name: "Undo" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Zebra crossing");
    expect(await status(page)).toBe("Zebra crossing is restored.");
    await fitsWidth(page, 390);
    await context.close();
  });
});

describe.each([1280, 390])("the console's feedback at %i px", (width) => {
  it("says each save, asks before a delete, links a deleted element to the trash, shows it read-only there", async () => {
    const { context, page } = await loggedIn("admin", width);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    await page.getByRole("button", { name: "Save" }).click();
    expect(await status(page)).toBe("Saved.");
    await page.goto(`${baseUrl}/console/elements/AUTHOR_ADA`);
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Move to the trash" }).click();
    expect(await status(page)).toContain("Ada Lovelace is moved to the trash.");
    const gone = await page.goto(`${baseUrl}/console/elements/AUTHOR_ADA`);
    expect(gone?.status()).toBe(404);
    await page.getByRole("link", { name: "Open it in the trash" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
    expect(await page.locator("main").innerText()).toContain("read-only until it is restored");
    expect(await page.locator("main input:not([type=hidden]), main textarea").count()).toBe(0);
    await fitsWidth(page, width);
    await page.getByRole("button", { name: "Restore" }).click();
    expect(await status(page)).toBe("Ada Lovelace is restored.");
    await context.close();
  });

  it("sums a refusal up at the top, linking to the field by its label, and adds no blank row", async () => {
    const { context, page } = await loggedIn("admin", width);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    const urls = page.locator("input[name=f_ar_link_url]");
    const rows = await urls.count();
    await page.getByLabel("ar_words").fill("12.5");
    await page.getByRole("button", { name: "Save" }).click();
    const summary = page.locator("main .summary[role=alert]");
    expect(await summary.innerText()).toContain("ar_words");
    expect(await summary.getByRole("link").getAttribute("href")).toBe("#f_ar_words");
    expect(await urls.count()).toBe(rows);
    await page.getByRole("button", { name: "Save" }).click();
    expect(await urls.count()).toBe(rows);
    await context.close();
  });
});

describe.each([1280, 390])("an element's page at %i px", (width) => {
  it("tells what each save changed, from what to what, without the fields the reader may not see", async () => {
    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_words: 120 + width, ar_category: width === 1280 ? "food" : "tech" } });
    const { context, page } = await loggedIn("bob", width);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    const changes = page.locator("section[aria-labelledby=changes]");
    const latest = changes.locator("ol.events > li").first();
    expect(await latest.innerText()).toContain("Saved by admin");
    const rows = await latest.locator("tbody tr").allInnerTexts();
    expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^ar_words\\t\\d+\\t${120 + width}$`)));
    // Enumerates by their label.
    expect(rows.some((row) => new RegExp(`^ar_category\t.*\t${width === 1280 ? "Food" : "Technology"}$`).test(row))).toBe(true);
    // The creation set ar_secret (visibility I): bob's history never shows it.
    expect(await changes.innerText()).toContain("Created by");
    expect(await changes.innerText()).not.toContain("ar_secret");
    expect(await changes.innerText()).not.toContain("hidden");
    // The side panel: properties, recent activity.
    const panel = page.getByRole("complementary", { name: "About this element" });
    expect(await panel.locator("section[aria-labelledby=properties]").innerText()).toContain("Owner");
    expect(await panel.locator("section[aria-labelledby=activity] li").first().innerText()).toContain("Saved by admin");
    await fitsWidth(page, width);
    await context.close();
  });

  it("puts the element in a folder from its side panel and takes it out; compares revisions by their differences only", async () => {
    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.create(admin, { structure: "DIR", values: { ba_title: `Shelf ${width}` } });
    const { context, page } = await loggedIn("admin", width);
    await page.goto(`${baseUrl}/console/elements/ART_ZEBRA`);
    const folders = page.locator("section[aria-labelledby=in-folders]");
    expect(await folders.innerText()).toContain("In no folder.");
    await folders.getByLabel("Add to a folder").selectOption({ label: `Shelf ${width}` });
    await folders.getByRole("button", { name: "Add" }).click();
    expect(await status(page)).toBe("Done for 1 element.");
    expect(await folders.getByRole("link").allInnerTexts()).toEqual([`Shelf ${width}`]);
    await folders.getByRole("button", { name: `Remove from Shelf ${width}` }).click();
    expect(await folders.innerText()).toContain("In no folder.");

    const apple = String(live.seed.apple.initid);
    await live.seed.platform.revisions.revise(admin, (await live.seed.platform.elements.read(admin, apple)).revision, { comment: "new" });
    await live.seed.platform.elements.update(admin, apple, { values: { ar_words: 300 + width } });
    await page.goto(`${baseUrl}/console/elements/${apple}/revisions`);
    const all = await page.locator("table.comparison tbody tr").count();
    await page.getByLabel("Differences only").check();
    await page.getByRole("button", { name: "Compare" }).click();
    const shown = await page.locator("table.comparison tbody tr th").allInnerTexts();
    expect(shown.length).toBeLessThan(all);
    expect(shown.map((label) => label.replace(/\s*differs$/, ""))).toContain("ar_words");
    expect(await page.locator("table.comparison tbody tr:not(.differs)").count()).toBe(0);
    await fitsWidth(page, width);
    await context.close();
  });
});

describe.each([1280, 390])("the console's home page, and French, at %i px", (width) => {
  it("lands on the home page: recent changes, my drafts, saved views and folders", async () => {
    const { context, page } = await loggedIn("admin", width);
    // An address the console does not have: its own page, not the API's JSON.
    expect((await page.goto(`${baseUrl}/console/no/such/page`))?.status()).toBe(404);
    expect(await page.locator("main [role=alert]").innerText()).toBe("There is no such page.");
    await page.goto(`${baseUrl}/console/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Home");
    expect(await page.locator("section[aria-labelledby=recent] li").count()).toBeGreaterThan(0);
    // The admin made the articles; those still in the lifecycle's first state are their drafts.
    const drafts = await page.locator("section[aria-labelledby=drafts] li a").allInnerTexts();
    expect(drafts).toEqual(expect.arrayContaining(["Hello", "Zebra crossing"]));
    expect(drafts).not.toContain("Apple pie");
    await page.locator("section[aria-labelledby=drafts]").getByRole("link", { name: /^All my drafts/ }).click();
    expect(await titlesOf(page)).toEqual(expect.arrayContaining(["Hello", "Zebra crossing"]));
    await page.goto(`${baseUrl}/console/`);
    expect(await page.locator("section[aria-labelledby=home-folders]").innerText()).toContain("Reading");
    await fitsWidth(page, width);
    await context.close();
  });

  it("takes a French number typed with a comma, and says a refusal in French", async () => {
    const login = `zoe${width}`;
    if (!(await live.seed.store.accounts.byLogin(login))) await live.seed.platform.accounts.add({ login, password: `${login}-pw`, roles: ["admin"], locale: "fr" });
    const { context, page } = await loggedIn(login, width);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    await page.getByLabel("ar_score").fill("4,7");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    expect(await status(page)).toBe("Enregistré.");
    expect(await page.locator("section[aria-labelledby=fields]").innerText()).toContain("4,7");
    // Refusals in French, fields named by label (here the fixture's fields have none: their id), never the API's English.
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    await page.getByLabel("ar_score").fill("abc");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    expect(await page.locator("main .summary[role=alert] li").innerText()).toBe("ar_score: « abc » n'est pas un nombre.");
    const said = async (path: string) => {
      const answer = await page.goto(`${baseUrl}/console/${path}`);
      return [answer?.status(), await page.locator("html").getAttribute("lang"), await page.locator("main [role=alert]").innerText()];
    };
    expect(await said("elements?structure=ARTICLE&f0=ar_words&o0=gt&v0=abc"))
      .toEqual([200, "fr", "La valeur de la condition sur « ar_words » n'est pas valable : « abc » n'est pas un nombre entier."]);
    expect(await said("elements?filter=%7Bbad")).toEqual([400, "fr", "Ce filtre n'est pas valable."]);
    expect(await said("trash/ART_HELLO")).toEqual([404, "fr", "Cet élément n'est pas dans la corbeille."]);
    expect(await said("elements/ART_HELLO/transitions/nope")).toEqual([404, "fr", "La transition « nope » n'existe pas pour cet élément."]);
    expect(await said("no/such/page")).toEqual([404, "fr", "Cette page n'existe pas."]);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO`);
    // What changed, in French: the relation by its element's title, the date and decimals as the person writes them, a time of theirs.
    const created = await page.locator("section[aria-labelledby=changes] ol.events > li").last().locator("tbody tr").allInnerTexts();
    expect(created).toEqual(expect.arrayContaining(["ar_author\t—\tAda Lovelace", "ar_date\t—\t04/03/2026", "ar_score\t—\t3,5", "ar_stamp\t—\t04/03/2026 05:06"]));
    const revisions = await page.goto(`${baseUrl}/console/elements/ART_HELLO/revisions`);
    expect(revisions?.status()).toBe(200);
    expect(await page.locator("main table").first().locator("tbody tr td:last-child").first().innerText()).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    await context.close();
    const alice = await loggedIn("alice", width);
    const refused = await alice.page.goto(`${baseUrl}/console/admin`);
    expect(refused?.status()).toBe(403);
    expect(await alice.page.getByRole("alert").textContent()).toBe("Cette page est réservée aux administrateurs.");
    // A long field label in the filter bar's choices (the folders' "Structures qu'il peut contenir…") fits a phone.
    await alice.page.goto(`${baseUrl}/console/elements?structure=DIR`);
    await fitsWidth(alice.page, width);
    await alice.context.close();
  });
});

/** axe-core's script, run in the page (the console itself needs no script: this context allows one for the check only). */
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe.each([1280, 390])("the console's accessibility at %i px", (width) => {
  it("has no serious or critical axe-core violation on its pages", async () => {
    // A value too long for the width: its tables scroll in boxes the keyboard must reach.
    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_link_url: [`https://example.org/${"a".repeat(300)}`, "https://example.com"] } });
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel("Login").fill("admin");
    await page.getByLabel("Password").fill("admin-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    const found: string[] = [];
    for (const path of ["", "structures", "elements?structure=ARTICLE&f0=ar_category&o0=eq&v0=food", "elements/ART_HELLO", "elements/ART_HELLO/edit",
      "elements/ART_HELLO/revisions", "elements/ART_HELLO/delete", "trash"]) {
      await page.goto(`${baseUrl}/console/${path}`);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      });
      found.push(...violations.map((violation) => `/console/${path} ${violation}`));
    }
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
