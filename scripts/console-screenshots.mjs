#!/usr/bin/env node
// `node scripts/console-screenshots.mjs`: the console's pages as a person sees them, for
// docs/console.md. Serves the demo (examples/demo/bundle.json) from the sources in a temporary
// data directory, logs in with the form as admin (and alice, in French), and saves a screenshot
// of each page at desktop (1280 px) and phone (390 px) width in docs/console/, JavaScript off
// as the console needs none. Needs Debian's chromium (/usr/bin/chromium).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM, ensureChromium } from "./ensure-chromium.mjs";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "docs", "console");
// playwright-core is a development dependency of the integration tests, whose browser tests use it too.
const { chromium } = createRequire(join(ROOT, "packages", "integration-tests", "package.json"))("playwright-core");

const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

/** Starts `lineage serve` on the demo from the sources; resolves with its address once it listens. */
function serveDemo(data) {
  const server = spawn(process.execPath, [
    "--conditions=@lineage/source", join(ROOT, "packages", "cli", "bin", "lineage.mjs"),
    "serve", "--data", data, "--seed", join(ROOT, "examples", "demo", "bundle.json"), "--port", "0",
  ], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ server, url });
    });
    server.on("exit", (code) => reject(new Error(`lineage serve stopped (${code}):\n${output}`)));
  });
}

/** A browser context without JavaScript, logged in through the form as `login` (the demo's password is the login). */
async function loggedIn(browser, url, login, viewport) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${url}/login?return=%2Fconsole%2F`);
  await page.getByLabel("Login").fill(login);
  await page.getByLabel("Password").fill(login);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(`${url}/console/`);
  return { context, page };
}

/** The pages shown, in the order docs/console.md lists them: a name, who looks, and how to get there. @type {{ name: string, login: string, go: (page: import("playwright-core").Page, url: string) => Promise<unknown> }[]} */
const PAGES = [
  { name: "home", login: "admin", go: (page, url) => page.goto(`${url}/console/`) },
  { name: "structures", login: "admin", go: (page, url) => page.goto(`${url}/console/structures`) },
  { name: "elements", login: "admin", go: (page, url) => page.goto(`${url}/console/elements?structure=ARTICLE&columns=ar_category&columns=ar_date`) },
  { name: "elements-filtered", login: "admin", go: (page, url) => page.goto(`${url}/console/elements?structure=ARTICLE&f0=title&o0=contains&v0=a&f1=mdate&o1=gte&v1=2000-01-01`) },
  { name: "element", login: "admin", go: (page, url) => page.goto(`${url}/console/elements/ART_HELLO`) },
  { name: "element-fr", login: "alice", go: (page, url) => page.goto(`${url}/console/elements/ART_HELLO`) },
  { name: "transition", login: "admin", go: async (page, url) => {
    // The article is in review (see below): publishing asks for a date and channels.
    await page.goto(`${url}/console/elements/ART_HELLO`);
    await page.locator("section[aria-labelledby=lifecycle]").getByRole("button", { name: "Publish" }).click();
  } },
  { name: "revisions", login: "admin", go: (page, url) => page.goto(`${url}/console/elements/ART_HELLO/revisions`) },
  { name: "edit", login: "admin", go: (page, url) => page.goto(`${url}/console/elements/ART_HELLO/edit`) },
  { name: "search", login: "admin", go: (page, url) => page.goto(`${url}/console/search?q=galaxy`) },
  { name: "delete", login: "admin", go: (page, url) => page.goto(`${url}/console/elements/ART_HELLO/delete`) },
  { name: "trash", login: "admin", go: (page, url) => page.goto(`${url}/console/trash`) },
  { name: "dashboards", login: "admin", go: (page, url) => page.goto(`${url}/console/dashboards`) },
  { name: "view", login: "admin", go: async (page, url) => {
    // A list saved as a view, opened from it: who sees it is said under the table.
    await page.goto(`${url}/console/elements?structure=ARTICLE&columns=ar_category`);
    await page.getByText("Save this list as a view").click();
    await page.getByLabel("Name of the view").fill("Articles by category");
    await page.getByRole("button", { name: "Save the view" }).click();
    const sharing = page.locator("main details.view-sharing summary");
    if (await sharing.count()) await sharing.click();
  } },
  { name: "admin", login: "admin", go: (page, url) => page.goto(`${url}/console/admin`) },
  { name: "admin-users", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/users`) },
  { name: "admin-user", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/users/alice`) },
  { name: "admin-delete-user", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/users/alice/delete`) },
  { name: "admin-model", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/model`) },
  { name: "admin-structure", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/model/structures/ARTICLE`) },
  { name: "admin-lifecycle", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/model/lifecycles/WFL_ARTICLE`) },
  { name: "admin-webhooks", login: "admin", go: (page, url) => page.goto(`${url}/console/admin/webhooks`) },
];

if (!ensureChromium()) process.exit(1);
const data = mkdtempSync(join(tmpdir(), "lineage-screenshots-"));
const { server, url } = await serveDemo(data);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
try {
  mkdirSync(OUT, { recursive: true });
  // A revision to compare: the demo's article goes to review once.
  {
    const { context, page } = await loggedIn(browser, url, "admin", WIDTHS.desktop);
    await page.goto(`${url}/console/elements/ART_HELLO`);
    const first = page.locator("section[aria-labelledby=lifecycle] button").first();
    if (await first.count()) {
      await first.click();
      await page.getByLabel("Comment").fill("Ready for a second reading");
      await page.locator("main form button[type=submit]").click();
    }
    await context.close();
  }
  for (const [size, viewport] of Object.entries(WIDTHS)) {
    const sessions = new Map();
    for (const { name, login, go } of PAGES) {
      if (!sessions.has(login)) sessions.set(login, await loggedIn(browser, url, login, viewport));
      const { page } = sessions.get(login);
      await go(page, url);
      const file = join(OUT, `${name}-${size}.png`);
      await page.screenshot({ path: file });
      console.log(`docs/console/${name}-${size}.png`);
    }
    for (const { context } of sessions.values()) await context.close();
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(data, { recursive: true, force: true });
}
