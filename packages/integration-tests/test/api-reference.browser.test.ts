import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer(seededPlatform);
  baseUrl = live.url;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

describe("GET /api/v2/docs in a real browser", () => {
  it("shows the reference of the API, with the Smart Elements operations, from local assets only", async () => {
    const context = await browser.newContext({ httpCredentials: { username: "bob", password: "bob-pw" } });
    const elsewhere: string[] = [];
    // Anything not served by our server would be a CDN: refuse it, and remember it.
    await context.route((url) => !url.href.startsWith(baseUrl), (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}/api/v2/docs`);
    expect(response?.status()).toBe(200);

    // Every tag is listed, collapsed; opening one shows its operations.
    await page.locator(".opblock-tag").first().waitFor({ timeout: 20_000 });
    await expect(page.locator(".opblock-tag").count()).resolves.toBeGreaterThan(10);
    const smartElements = page.locator("h3.opblock-tag", { hasText: /^Smart Elements/ });
    await smartElements.first().click();
    await page.locator(".opblock-summary-path").first().waitFor({ timeout: 20_000 });
    const summaries = await page.locator("#operations-tag-Smart_Elements ~ div .opblock-summary-path, .opblock-tag-section .opblock-summary-path").allTextContents();
    expect(summaries.map((text) => text.replace(/\u200b/g, ""))).toEqual(expect.arrayContaining(["/api/v2/smart-elements", "/api/v2/smart-elements/{docid}"]));
    await expect(page.locator(".opblock-summary-description", { hasText: "Modify a Smart Element" }).count()).resolves.toBeGreaterThan(0);
    await expect(page.locator(".info .title").textContent()).resolves.toMatch(/Lineage REST API v2/);
    expect(elsewhere).toEqual([]);
    await context.close();
  });
});
