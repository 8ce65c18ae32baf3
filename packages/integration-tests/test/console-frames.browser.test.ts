import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionLogins } from "../src/browser-login.ts";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Frames and tabs in the console, in a real browser without JavaScript: the element's page and its
// forms show the fields in their groups (frames as sections or fieldsets with their legend, tabs as
// sections with a list of links to each), and stay accessible.

const BUNDLE = {
  accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }] },
  structures: [{
    name: "CONTRACT", title: "Contract", titleField: "ct_title",
    fieldSets: [
      { id: "t_main", type: "tab", label: "Main" },
      { id: "fr_ident", type: "frame", label: "Identification", parent: "t_main" },
      { id: "t_money", type: "tab", label: "Money" },
      { id: "fr_amounts", type: "frame", label: "Amounts", parent: "t_money" },
      { id: "fr_notes", type: "frame", label: "Notes" },
    ],
    fields: [
      { id: "ct_ref", type: "text", label: "Reference" },
      { id: "ct_title", type: "text", label: "Title", fieldSet: "fr_ident", needed: true },
      { id: "ct_total", type: "money", label: "Total", fieldSet: "fr_amounts" },
      { id: "ct_note", type: "longtext", label: "Note", fieldSet: "fr_notes" },
    ],
  }],
  elements: [{ structure: "CONTRACT", name: "CT_1", values: { ct_ref: "R-1", ct_title: "Lease", ct_total: 120, ct_note: "Yearly" } }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE), { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

const login = sessionLogins(() => browser, () => baseUrl);
/** The administrator's browser (logged in through the form the first time), on the console's home page. */
const loggedIn = (javaScriptEnabled = false) => login("admin", { javaScriptEnabled, viewport: { width: 1280, height: 900 }, bypassCSP: true });

describe("frames and tabs in the console", () => {
  it("shows an element's fields in their tabs and frames, each tab reached from the tab list", async () => {
    const { context, page } = await loggedIn();
    await page.goto(`${baseUrl}/console/elements/CT_1`);
    const tabs = page.getByRole("navigation", { name: "Tabs" }).getByRole("link");
    expect(await tabs.allInnerTexts()).toEqual(["Main", "Money"]);
    expect(await page.locator("main section.tab > h3").allInnerTexts()).toEqual(["Main", "Money"]);
    expect(await page.locator("main section.tab section.frame > h4").allInnerTexts()).toEqual(["Identification", "Amounts"]);
    expect(await page.locator("main section.frame > h3").allInnerTexts()).toEqual(["Notes"]);
    // Each field in its group; the field of no frame first.
    expect(await page.locator("#set-fr_ident dt").allInnerTexts()).toEqual(["Title"]);
    expect(await page.locator("#set-fr_ident dd").innerText()).toBe("Lease");
    expect(await page.locator("#set-fr_amounts dt").allInnerTexts()).toEqual(["Total"]);
    expect((await page.locator("section[aria-labelledby=fields] dl.fields").first().locator("dt").allInnerTexts())).toEqual(["Reference"]);
    await tabs.filter({ hasText: "Money" }).click();
    expect(new URL(page.url()).hash).toBe("#set-t_money");
    await context.close();
  });

  it("edits a field of a frame in a tab: the form groups fields in fieldsets with their legend", async () => {
    const { context, page } = await loggedIn();
    await page.goto(`${baseUrl}/console/elements/CT_1/edit`);
    expect(await page.locator("form fieldset.frame > legend").allInnerTexts()).toEqual(["Identification", "Amounts", "Notes"]);
    expect(await page.getByRole("navigation", { name: "Tabs" }).getByRole("link").allInnerTexts()).toEqual(["Main", "Money"]);
    await page.locator("#set-fr_amounts").getByLabel("Total").fill("250");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${baseUrl}/console/elements/*`);
    expect(await page.locator("#set-fr_amounts dd").innerText()).toMatch(/^250/);
    const api = await live.api.call("GET", "/api/v2/smart-elements/CT_1.json?fields=document.attributes.ct_total", { as: ["admin", "admin-pw"] });
    expect(api.json.data.document.attributes.ct_total.value).toBe(250);
    await context.close();
  });

  it("has no serious or critical axe-core violation on the element's page and its forms", async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    const { context, page } = await loggedIn(true);
    const found: string[] = [];
    for (const path of ["elements/CT_1", "elements/CT_1/edit", "structures/CONTRACT/new"]) {
      await page.goto(`${baseUrl}/console/${path}`);
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      });
      found.push(...violations.map((violation) => `/console/${path} ${violation}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });
});
