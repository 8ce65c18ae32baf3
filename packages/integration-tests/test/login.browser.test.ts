import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer(seededPlatform, { auth: { sessionCookie: { samesite: "lax", httponly: true }, throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

describe("logging in with the form in a real browser", () => {
  it("goes from a protected page to the login form and back, with the configured cookie flags", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?from=browser`);
    expect(new URL(page.url()).pathname).toBe("/login");

    // A wrong password: the form again, with the message, and no session.
    await page.getByLabel("Login").fill("alice");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("Username and/or password is incorrect.");
    expect((await context.cookies()).some((c) => c.name === "lineage-session")).toBe(false);

    await page.getByLabel("Password").fill("alice-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${baseUrl}/?from=browser`);
    await expect(page.locator("#who").textContent()).resolves.toContain("Logged in as alice (alice)");

    const session = (await context.cookies()).find((c) => c.name === "lineage-session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });

    // The session also opens the API to the browser.
    const api = await page.goto(`${baseUrl}/api/v2/smart-elements/`);
    expect(api?.status()).toBe(200);

    await page.goto(`${baseUrl}/`);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain("You are logged out.");
    expect((await context.cookies()).some((c) => c.name === "lineage-session")).toBe(false);
    await page.goto(`${baseUrl}/`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });
});
