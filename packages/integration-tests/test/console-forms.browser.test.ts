import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { sessionLogins } from "../src/browser-login.ts";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// The console's form controls in a real browser, with and without its script, at a desktop's width
// and a phone's: the relation picker (a title typed settles into the right id; suggestions as a
// combobox driven by the keyboard), checked by axe-core.

let live: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer((store) => lifecyclePlatform(store), { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  // More authors than a select offers: the relation is a text box that searches titles. Two share a name.
  const admin = await live.seed.principal("admin");
  const names = ["Jane Cooper", "Sam Lee", "Sam Lee", ...Array.from({ length: 32 }, (_, i) => `Writer ${String(i + 1).padStart(2, "0")}`)];
  for (const name of names) await live.seed.platform.elements.create(admin, { structure: "AUTHOR", values: { au_name: name } });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

const login = sessionLogins(() => browser, () => baseUrl);
/** A browser logged in (through the form the first time), on the console's home page. */
const loggedIn = (name: string, width: number, javaScriptEnabled: boolean) => login(name, { javaScriptEnabled, viewport: { width, height: 900 } });

/** The initid of the author an article names, as the API reads it. */
async function authorOf(ref: string): Promise<unknown> {
  const answer = await fetch(`${baseUrl}/api/v2/smart-elements/${ref}.json?fields=document.attributes.ar_author`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
  const body = (await answer.json()) as { data: { document: { attributes: { ar_author: { value: unknown; displayValue: string } } } } };
  return body.data.document.attributes.ar_author.displayValue;
}

const fitsWidth = async (page: Page, width: number) => expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
const flash = (page: Page) => page.locator("main .flash").innerText();

describe.each([1280, 390])("the relation picker without script at %i px", (width) => {
  it("settles a typed title into its element, and asks which one when several or none are named so", async () => {
    await live.seed.platform.elements.update(await live.seed.principal("admin"), "ART_HELLO", { values: { ar_author: "AUTHOR_ADA" } });
    const { context, page } = await loggedIn("admin", width, false);
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    const author = page.getByLabel("ar_author", { exact: true });
    expect(await author.inputValue()).toBe("Ada Lovelace");
    await author.fill("Jane Cooper");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await flash(page)).toContain("Saved");
    expect(await authorOf("ART_HELLO")).toBe("Jane Cooper");

    // Two are named so: the form comes back with both to choose from.
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    await page.getByLabel("ar_author", { exact: true }).fill("sam lee");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.locator("main .summary").innerText()).toContain('ar_author: Several are named "sam lee"');
    const choice = page.getByLabel("ar_author: choose one");
    expect((await choice.locator("option").allInnerTexts()).filter(Boolean)).toEqual(["Sam Lee", "Sam Lee"]);
    const second = await choice.locator("option").nth(2).getAttribute("value");
    await choice.selectOption(second!);
    await page.getByRole("button", { name: "Save" }).click();
    expect(await flash(page)).toContain("Saved");
    const api = await fetch(`${baseUrl}/api/v2/smart-elements/ART_HELLO.json?fields=document.attributes.ar_author`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
    expect(String(((await api.json()) as { data: { document: { attributes: { ar_author: { value: unknown } } } } }).data.document.attributes.ar_author.value)).toBe(second);

    // None exactly: the close ones; nothing close: said, with what was typed kept.
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    await page.getByLabel("ar_author", { exact: true }).fill("Cooper");
    await page.getByRole("button", { name: "Save" }).click();
    expect((await page.getByLabel("ar_author: choose one").locator("option").allInnerTexts()).filter(Boolean)).toEqual(["Jane Cooper"]);
    await page.getByLabel("ar_author: or type another name").fill("Nobody Here");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.locator("main .summary").innerText()).toContain('Nothing you may view is named "Nobody Here"');
    expect(await page.getByLabel("ar_author", { exact: true }).inputValue()).toBe("Nobody Here");
    expect(await page.content()).not.toContain("not found");
    await fitsWidth(page, width);
    await context.close();
  });
});

describe.each([1280, 390])("the relation picker in the filter bar at %i px", (width) => {
  it("filters a list by a relation's typed title, every element named so", async () => {
    const admin = await live.seed.principal("admin");
    const sams = (await live.seed.platform.elements.list(admin, { family: "AUTHOR", filter: { field: "title", operator: "eq", value: "Sam Lee" }, fields: "document.properties.initid" })).documents;
    await live.seed.platform.elements.update(admin, "ART_ZEBRA", { values: { ar_author: String(sams[0]!.properties!.initid) } });
    await live.seed.platform.elements.update(admin, "ART_HELLO", { values: { ar_author: String(sams[1]!.properties!.initid) } });
    const { context, page } = await loggedIn("admin", width, false);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE`);
    await page.getByLabel("Field of condition 1").selectOption({ label: "ar_author" });
    await page.getByRole("button", { name: "Apply" }).first().click();
    await page.getByLabel("Value of condition 1").fill("sam lee");
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect((await page.locator("main table tbody").innerText())).toContain("Hello");
    expect(await page.locator("main p.total").innerText()).toBe("2 elements, 1 to 2 shown");
    expect(await page.getByLabel("Value of condition 1").inputValue()).toBe("sam lee");
    // A title that names nothing the person may view finds nothing, and stays in its box.
    await page.getByLabel("Value of condition 1").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Apply" }).first().click();
    expect(await page.locator("main p.total").innerText()).toBe("No element");
    expect(await page.getByLabel("Value of condition 1").inputValue()).toBe("Ada Lovelace");
    await fitsWidth(page, width);
    await context.close();
  });
});

describe.each([1280, 390])("the relation picker with its script at %i px", (width) => {
  it("suggests titles as a combobox the keyboard drives, and saves the one picked", async () => {
    const { context, page } = await loggedIn("admin", width, true);
    await page.goto(`${baseUrl}/console/elements/ART_ZEBRA/edit`);
    const author = page.getByRole("combobox", { name: "ar_author" });
    await author.fill("");
    await author.pressSequentially("Sam");
    const list = page.getByRole("listbox", { name: "Suggestions for ar_author" });
    await expect.poll(() => list.getByRole("option").allInnerTexts()).toEqual(["Sam Lee", "Sam Lee"]);
    expect(await author.getAttribute("aria-expanded")).toBe("true");
    await author.press("ArrowDown");
    await author.press("ArrowDown");
    const active = await author.getAttribute("aria-activedescendant");
    expect(await page.locator(`#${active}`).getAttribute("aria-selected")).toBe("true");
    const picked = await page.locator(`#${active}`).getAttribute("data-value");
    // Suggestions that come back meanwhile (a slow answer) keep the highlighted one: Enter would send the form otherwise.
    const refreshed = page.waitForResponse((answer) => answer.url().includes("/console/relations"));
    await author.dispatchEvent("input");
    await refreshed;
    await expect.poll(() => page.locator(`#${active}`).getAttribute("aria-selected")).toBe("true");
    expect(await author.getAttribute("aria-activedescendant")).toBe(active);
    await author.press("Enter");
    expect(await author.getAttribute("aria-expanded")).toBe("false");
    expect(await author.inputValue()).toBe("Sam Lee");
    // Escape closes the suggestions without picking.
    await author.press("Backspace");
    await expect.poll(() => author.getAttribute("aria-expanded")).toBe("true");
    await author.press("Escape");
    expect(await author.getAttribute("aria-expanded")).toBe("false");
    await author.press("e");
    await expect.poll(() => list.getByRole("option").count()).toBe(2);
    await author.press("ArrowDown");
    await author.press("ArrowDown");
    await author.press("Enter");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await flash(page)).toContain("Saved");
    const api = await fetch(`${baseUrl}/api/v2/smart-elements/ART_ZEBRA.json?fields=document.attributes.ar_author`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
    expect(String(((await api.json()) as { data: { document: { attributes: { ar_author: { value: unknown } } } } }).data.document.attributes.ar_author.value)).toBe(picked);
    await fitsWidth(page, width);
    await context.close();
  });
});

/** An article's HTML body as the API reads it. */
async function bodyOf(ref: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/v2/smart-elements/${ref}.json?fields=document.attributes.ar_body`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
  return String(((await answer.json()) as { data: { document: { attributes: { ar_body: { value: unknown } } } } }).data.document.attributes.ar_body.value);
}

describe.each([1280, 390])("the HTML editor at %i px", (width) => {
  it("without script, is a text area whose HTML the server sanitises", async () => {
    const { context, page } = await loggedIn("admin", width, false);
    await page.goto(`${baseUrl}/console/elements/ART_ZEBRA/edit`);
    await page.getByLabel("ar_body").fill('<p style="color:red" onclick="x()">Hi <b>there</b><iframe src="https://example.org"></iframe></p><style>p{}</style><a href="https://example.org" target="_top">link</a>');
    await page.getByRole("button", { name: "Save" }).click();
    expect(await flash(page)).toContain("Saved");
    expect(await bodyOf("ART_ZEBRA")).toBe('<p>Hi <b>there</b></p><a href="https://example.org">link</a>');
    await context.close();
  });

  it("with script, edits formatted text from a toolbar, the HTML saved sanitised", async () => {
    const { context, page } = await loggedIn("alice", width, true);
    await page.goto(`${baseUrl}/console/elements/ART_ZEBRA/edit`);
    const area = page.getByRole("textbox", { name: "ar_body" });
    expect(await area.getAttribute("contenteditable")).toBe("true");
    expect(await page.locator("textarea[name=f_ar_body]").isHidden()).toBe(true);
    expect(await area.innerText()).toContain("Hi there");
    await area.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    const toolbar = page.getByRole("toolbar", { name: "Mise en forme de ar_body" });
    await toolbar.getByRole("button", { name: "Gras" }).click();
    await page.keyboard.type("Bonjour");
    await toolbar.getByRole("button", { name: "Liste à puces" }).click();
    await page.getByRole("button", { name: "Enregistrer" }).click();
    expect(await flash(page)).toContain("Enregistré");
    const saved = await bodyOf("ART_ZEBRA");
    expect(saved).toMatch(/<(b|strong)>Bonjour<\/(b|strong)>/);
    expect(saved).toContain("<ul>");
    expect(saved).not.toMatch(/style=|contenteditable/);
    await fitsWidth(page, width);
    await context.close();
  });
});

describe.each([1280, 390])("after login at %i px", (width) => {
  it("lands on the console's home page, unless a page was asked for", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const logIn = async (login: string) => {
      await page.getByLabel("Login").fill(login);
      await page.getByLabel("Password").fill(`${login}-pw`);
      await page.getByRole("button", { name: "Log in" }).click();
    };
    await page.goto(`${baseUrl}/login`);
    await logIn("alice");
    await page.waitForURL(`${baseUrl}/console/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Accueil");
    // The site's root asks for no page in particular: the home page too.
    await context.clearCookies();
    await page.goto(`${baseUrl}/`);
    await logIn("admin");
    await page.waitForURL(`${baseUrl}/console/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Home");
    // A page asked for is where the login goes.
    await context.clearCookies();
    await page.goto(`${baseUrl}/console/trash`);
    await logIn("admin");
    await page.waitForURL(`${baseUrl}/console/trash`);
    await context.close();
  });
});

describe("shared saved views", () => {
  it("keeps a view private or shares it under a profile of the definitions, listed to those it lets view it", async () => {
    // A bundle's profile for team views: the newsroom views them, their owner changes and deletes them.
    await live.seed.store.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_TEAM_VIEWS", grants: { view: ["group:newsroom", "owner"], edit: ["owner"], delete: ["owner"] } }));
    await live.seed.platform.accounts.add({ login: "dave", password: "dave-pw", groups: ["newsroom"] });
    const { context, page } = await loggedIn("alice", 390, false);
    await page.goto(`${baseUrl}/console/elements?structure=ARTICLE&f0=ar_category&o0=eq&v0=food`);
    await page.getByText("Enregistrer cette liste comme vue").click();
    const who = page.getByRole("group", { name: "Qui la voit" });
    expect(await who.getByRole("radio").count()).toBe(2);
    expect(await who.getByLabel("Moi seul").isChecked()).toBe(true);
    await page.getByLabel("Nom de la vue").fill("Recettes de l'équipe");
    await who.getByLabel("Partagée avec le groupe newsroom").check();
    await page.getByRole("button", { name: "Enregistrer la vue" }).click();
    expect(await flash(page)).toBe("La vue « Recettes de l'équipe » est enregistrée.");
    await page.getByText("Enregistrer cette liste comme vue").click();
    await page.getByLabel("Nom de la vue").fill("Mes recettes");
    await page.getByRole("button", { name: "Enregistrer la vue" }).click();
    await context.close();

    // Dave, of the newsroom, sees the shared view, not the private one; bob sees neither.
    const dave = await loggedIn("dave", 1280, false);
    await dave.page.goto(`${baseUrl}/console/elements`);
    const panel = dave.page.locator("section[aria-labelledby=panel-views]");
    expect(await panel.getByRole("link").allInnerTexts()).toEqual(["Recettes de l'équipe"]);
    await panel.getByRole("link", { name: "Recettes de l'équipe" }).click();
    expect(await dave.page.locator("main table tbody tr").count()).toBe(1);
    expect(await dave.page.locator("main table tbody").innerText()).toContain("Apple pie");
    const searches = await fetch(`${baseUrl}/api/v2/searches/`, { headers: { authorization: live.api.basic("dave", "dave-pw") } });
    expect(((await searches.json()) as { data: { documents: { properties: { title: string } }[] } }).data.documents.map((d) => d.properties.title)).toEqual(["Recettes de l'équipe"]);
    await dave.context.close();
    const bob = await loggedIn("bob", 1280, false);
    await bob.page.goto(`${baseUrl}/console/elements`);
    expect(await bob.page.locator("section[aria-labelledby=panel-views]").innerText()).not.toContain("recettes");
    await bob.context.close();
  });

  it("lets the owner change who sees a view after saving it, and nobody else", async () => {
    // Alice's views of the test above: "Recettes de l'équipe" shared with the newsroom, "Mes recettes" private.
    const { context, page } = await loggedIn("alice", 390, false);
    await page.goto(`${baseUrl}/console/elements`);
    await page.locator("section[aria-labelledby=panel-views]").getByRole("link", { name: "Mes recettes" }).click();
    // Sorted by a column, the list is still the view (its sharing form under it).
    const mine = new URL(page.url()).searchParams.get("view");
    await page.getByRole("link", { name: "Trier par Titre" }).click();
    expect(new URL(page.url()).searchParams.get("view")).toBe(mine);
    const sharing = page.locator("main details.view-sharing");
    expect(await sharing.locator("summary").innerText()).toBe("Qui la voit : Moi seul");
    await sharing.locator("summary").click();
    const who = sharing.getByRole("group", { name: "Qui voit la vue « Mes recettes »" });
    expect(await who.getByLabel("Moi seul").isChecked()).toBe(true);
    await who.getByLabel("Partagée avec le groupe newsroom").check();
    await sharing.getByRole("button", { name: "Changer qui la voit" }).click();
    expect(await flash(page)).toBe("La vue « Mes recettes » est partagée avec le groupe newsroom désormais.");
    expect(await page.locator("main table tbody").innerText()).toContain("Apple pie");
    expect(await page.locator("main details.view-sharing summary").innerText()).toBe("Qui la voit : Partagée avec le groupe newsroom");
    // The shared one made private again.
    await page.locator("section[aria-labelledby=panel-views]").getByRole("link", { name: "Recettes de l'équipe" }).click();
    await page.locator("main details.view-sharing summary").click();
    await page.locator("main details.view-sharing").getByLabel("Moi seul").check();
    await page.getByRole("button", { name: "Changer qui la voit" }).click();
    expect(await flash(page)).toBe("Vous seul voyez la vue « Recettes de l'équipe » désormais.");
    await context.close();

    // Dave sees the view now shared, not the one made private, and cannot change who sees it.
    const dave = await loggedIn("dave", 1280, false);
    await dave.page.goto(`${baseUrl}/console/elements`);
    const panel = dave.page.locator("section[aria-labelledby=panel-views]");
    expect(await panel.getByRole("link").allInnerTexts()).toEqual(["Mes recettes"]);
    await panel.getByRole("link", { name: "Mes recettes" }).click();
    expect(await dave.page.locator("main details.view-sharing").count()).toBe(0);
    const view = new URL(dave.page.url()).searchParams.get("view")!;
    const csrf = await dave.page.locator("header input[name=csrf]").getAttribute("value");
    await dave.context.request.post(`${baseUrl}/console/views/${view}/sharing`, { form: { csrf: csrf ?? "", share: "" } });
    const reading = await live.seed.platform.elements.read(await live.seed.principal("admin"), view);
    expect(reading.revision.ownProfile).toBe("PRF_TEAM_VIEWS");
    await dave.context.close();
  });
});

describe("a list sorted by an enum field", () => {
  it("sorts by the labels in the person's language, a page at a time, while the API sorts by key", async () => {
    await live.seed.store.transaction(async (tx) => {
      await tx.catalog.saveEnumerate({ name: "TOPICS", items: [
        { key: "a_tech", label: { en: "Technology", fr: "Technologie" } },
        { key: "b_culture", label: "Culture" },
        { key: "c_ai", label: { en: "Artificial intelligence", fr: "Intelligence artificielle" } },
      ] });
      await tx.catalog.saveStructure({ name: "TOPICAL", title: "Topical", icon: "topical.png", titleField: "tp_title",
        fields: [{ id: "tp_title", type: "text", label: "Name" }, { id: "tp_topic", type: "enum", enum: "TOPICS", label: { en: "Topic", fr: "Sujet" } }] });
    });
    const admin = await live.seed.principal("admin");
    const topics = ["a_tech", "b_culture", "c_ai", null];
    for (let i = 1; i <= 12; i++) {
      await live.seed.platform.elements.create(admin, { structure: "TOPICAL", values: { tp_title: `E${String(i).padStart(2, "0")}`, tp_topic: topics[(i - 1) % 4] } });
    }
    const titles = async (page: Page) => (await page.locator("main table tbody tr td:first-of-type a, main table tbody tr td:nth-of-type(2) > a").allInnerTexts()).filter((text) => /^E\d\d$/.test(text));
    const { context, page } = await loggedIn("admin", 1280, false);
    await page.goto(`${baseUrl}/console/elements?structure=TOPICAL&columns=tp_topic&size=10`);
    await page.getByRole("link", { name: "Sort by Topic" }).click();
    expect(await titles(page)).toEqual(["E11", "E07", "E03", "E10", "E06", "E02", "E09", "E05", "E01", "E12"]);
    expect(await page.locator("main p.total").innerText()).toBe("12 elements, 1 to 10 shown");
    await page.getByRole("link", { name: "Page 2" }).click();
    expect(await titles(page)).toEqual(["E08", "E04"]);
    await page.goto(`${baseUrl}/console/elements?structure=TOPICAL&columns=tp_topic&size=10&orderBy=tp_topic:desc`);
    expect(await titles(page)).toEqual(["E12", "E08", "E04", "E09", "E05", "E01", "E10", "E06", "E02", "E11"]);
    await context.close();
    // In French, "Culture" comes before "Intelligence artificielle".
    const alice = await loggedIn("alice", 390, false);
    await alice.page.goto(`${baseUrl}/console/elements?structure=TOPICAL&columns=tp_topic&size=10&orderBy=tp_topic:asc`);
    expect((await titles(alice.page)).slice(0, 6)).toEqual(["E10", "E06", "E02", "E11", "E07", "E03"]);
    await alice.context.close();
    // The API sorts by key, as the original's list routes do (the elements with no value aside: where they go is the store's).
    const api = await fetch(`${baseUrl}/api/v2/smart-structures/TOPICAL/smart-elements/?orderBy=tp_topic:asc&slice=12`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
    const byKey = ((await api.json()) as { data: { documents: { properties: { title: string } }[] } }).data.documents.map((d) => d.properties.title);
    expect(byKey.filter((title) => !["E12", "E08", "E04"].includes(title))).toEqual(["E09", "E05", "E01", "E10", "E06", "E02", "E11", "E07", "E03"]);
  });
});

/** axe-core's script, run in the page. */
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe.each([1280, 390])("the console's form controls' accessibility at %i px", (width) => {
  it("has no serious or critical axe-core violation, the suggestions open or not", async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel("Login").fill("admin");
    await page.getByLabel("Password").fill("admin-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    const check = async (where: string) => {
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      });
      return violations.map((violation) => `${where} ${violation}`);
    };
    const found: string[] = [];
    await page.goto(`${baseUrl}/console/elements/ART_HELLO/edit`);
    found.push(...await check("edit"));
    await page.getByRole("combobox", { name: "ar_author" }).fill("Writer 1");
    await expect.poll(() => page.getByRole("option").count()).toBeGreaterThan(0);
    found.push(...await check("edit, suggestions open"));
    await page.goto(`${baseUrl}/console/structures/ARTICLE/new`);
    found.push(...await check("new"));
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
