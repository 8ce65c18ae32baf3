import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

/** How a browser suite opens a logged-in page: a fresh context of its own, on `landing`. */
export type LoggedIn = (login: string, options: BrowserContextOptions, landing?: string) => Promise<{ context: BrowserContext; page: Page }>;

/**
 * Logs each person in through the login form once per suite (`<login>-pw`), then opens their later
 * contexts with that session's cookie: the form and its password check are tested once, not before
 * every test. Each context is still its own (a message left for one page never reaches another), and
 * a session the suite has ended meanwhile is opened again through the form.
 */
export function sessionLogins(browser: () => Browser, baseUrl: () => string): LoggedIn {
  const sessions = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();
  return async (login, options, landing = "/console/") => {
    const known = sessions.get(login);
    const context = await browser().newContext({ ...options, ...(known ? { storageState: known } : {}) });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}${landing}`);
    const asked = new URL(page.url()).pathname === "/login";
    // Nobody is logged in before the form: a first visit must be asked to log in.
    if (!known && !asked) throw new Error(`${landing} did not ask ${login} to log in`);
    if (asked) {
      await page.getByLabel("Login").fill(login);
      await page.getByLabel("Password").fill(`${login}-pw`);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL(`${baseUrl()}${landing}`);
      sessions.set(login, await context.storageState());
    }
    return { context, page };
  };
}
