import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// The console's administration pages in a real browser without JavaScript: users (add, edit roles
// and groups, disable, enable, a new password), for an administrator in English and one in French.

let live: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  live = await startLiveServer(async (store) => {
    const seed = await lifecyclePlatform(store);
    // A French administrator, besides the seed's English one.
    await seed.platform.accounts.add({ login: "admine", password: "admine-pw", displayName: "Amélie", roles: ["admin"], locale: "fr" });
    // A structure that inherits the articles' fields, lifecycle and profile.
    await store.transaction((tx) => tx.catalog.saveStructure({
      name: "FEATURE", extends: "ARTICLE", title: { en: "Feature", fr: "Reportage" }, fields: [{ id: "fe_subtitle", type: "text", label: { en: "Subtitle", fr: "Sous-titre" }, needed: true }],
    }));
    // A search domain: the overview's table of domains.
    await store.transaction((tx) => tx.search.saveDomain({ name: "articles", lang: "en", stem: "english", configs: [{ structure: "ARTICLE", fields: [], files: [], callables: [] }] }));
    return seed;
  }, { auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  baseUrl = live.api.baseUrl;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  await live?.close();
});

async function loggedIn(login: string, width = 1280, path = "/console/"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}${path}`);
  const french = (await page.locator("html").getAttribute("lang")) === "fr";
  await page.getByLabel(french ? "Identifiant" : "Login").fill(login);
  await page.getByLabel(french ? "Mot de passe" : "Password").fill(`${login}-pw`);
  await page.getByRole("button", { name: french ? "Se connecter" : "Log in" }).click();
  await page.waitForURL(`${baseUrl}${path}`);
  return { context, page };
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();

describe("users, administered in English", () => {
  it("adds a user: refused values shown at their fields by label, then added with roles and groups", async () => {
    const { context, page } = await loggedIn("admin", 1280, "/console/admin");
    await page.getByRole("link", { name: "Add a user" }).first().click();
    expect(await heading(page)).toBe("New user");
    await page.getByLabel("Login").fill("bad login");
    await page.getByLabel("Display name").fill("Dora Maar");
    await page.getByRole("checkbox", { name: "Editors editor" }).check();
    await page.getByRole("button", { name: "Add a user" }).click();
    // Both refusals in the summary, by their labels; what was typed is kept.
    const summary = page.getByRole("alert");
    expect(await summary.innerText()).toContain("Login: Letters, digits and . _ @ - only, 1 to 64 characters.");
    expect(await summary.innerText()).toContain("Password: Give a password.");
    await expect.poll(() => page.getByLabel("Display name").inputValue()).toBe("Dora Maar");
    expect(await page.getByRole("checkbox", { name: "Editors editor" }).isChecked()).toBe(true);
    expect(await page.getByLabel("Login").getAttribute("aria-invalid")).toBe("true");
    await summary.getByRole("link", { name: "Login" }).click();
    expect(new URL(page.url()).hash).toBe("#user-login");

    await page.getByLabel("Login").fill("dora");
    await page.getByLabel("Password", { exact: true }).fill("dora-pw");
    await page.getByRole("checkbox", { name: /newsroom/ }).check();
    await page.getByRole("button", { name: "Add a user" }).click();
    expect(new URL(page.url()).pathname).toBe("/console/admin/users/dora");
    expect(await page.getByRole("status").textContent()).toBe("The user dora is added.");
    expect(await live.seed.platform.accounts.find("dora")).toMatchObject({ displayName: "Dora Maar", roles: ["editor"], groups: ["newsroom"], locale: "en" });
    expect(await live.seed.platform.accounts.authenticate("dora", "dora-pw")).toBeDefined();

    // A login already taken is refused at its field.
    await page.goto(`${baseUrl}/console/admin/new-user`);
    await page.getByLabel("Login").fill("dora");
    await page.getByLabel("Password", { exact: true }).fill("x");
    await page.getByRole("button", { name: "Add a user" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("Login: This login is already taken.");
    await context.close();
  });

  it("edits roles, groups and language, disables, enables and sets a new password", async () => {
    const { context, page } = await loggedIn("admin", 1280, "/console/admin/users");
    expect(await heading(page)).toBe("Users");
    await page.getByRole("link", { name: "bob", exact: true }).click();
    expect(await heading(page)).toBe("User bob");
    await page.getByRole("checkbox", { name: "reader" }).uncheck();
    await page.getByRole("checkbox", { name: "Editors editor" }).check();
    await page.getByLabel("Language").selectOption("fr");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.getByRole("status").textContent()).toBe("The user bob is saved.");
    expect(await live.seed.platform.accounts.find("bob")).toMatchObject({ roles: ["editor"], locale: "fr" });

    const bob = await browser.newContext({ javaScriptEnabled: false });
    const bobPage = await bob.newPage();
    await bobPage.goto(`${baseUrl}/console/`);
    await bobPage.getByLabel("Login").fill("bob");
    await bobPage.getByLabel("Password").fill("bob-pw");
    await bobPage.getByRole("button", { name: "Log in" }).click();
    expect(await heading(bobPage)).toBe("Accueil");

    await page.getByRole("button", { name: "Disable" }).click();
    expect(await page.getByRole("status").textContent()).toBe("The user bob is disabled.");
    expect((await live.seed.platform.accounts.find("bob"))?.disabled).toBe(true);
    // bob's session ended with it: his next page is the login form.
    await bobPage.goto(`${baseUrl}/console/`);
    expect(new URL(bobPage.url()).pathname).toBe("/login");
    await bob.close();

    await page.getByRole("button", { name: "Enable" }).click();
    expect(await page.getByRole("status").textContent()).toBe("The user bob is enabled.");
    await page.getByLabel("New password").fill("bob-new-pw");
    await page.getByRole("button", { name: "Set the password" }).click();
    expect(await page.getByRole("status").textContent()).toMatch(/^The password of bob is set; \d sessions? ended\.$/);
    expect(await live.seed.platform.accounts.authenticate("bob", "bob-new-pw")).toBeDefined();
    await live.seed.platform.accounts.setPassword("bob", "bob-pw");
    await context.close();
  });

  it("refuses an administrator locking themselves out, and every page and post to others", async () => {
    const { context, page } = await loggedIn("admin", 1280, "/console/admin/users/admin");
    expect(await page.getByRole("button", { name: "Disable" }).count()).toBe(0);
    await page.getByRole("checkbox", { name: "admin", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("Roles: You cannot take the administrator role from yourself.");
    expect((await live.seed.platform.accounts.find("admin"))?.roles).toEqual(["admin"]);
    // A forged post without the form token.
    const forged = await context.request.post(`${baseUrl}/console/admin/users/bob/disable`, { form: { csrf: "guess" }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    await context.close();

    const alice = await loggedIn("alice");
    for (const path of ["admin/users", "admin/users/bob", "admin/new-user"]) {
      const refused = await alice.page.goto(`${baseUrl}/console/${path}`);
      expect(refused?.status()).toBe(403);
      expect(await alice.page.getByRole("alert").textContent()).toBe("Cette page est réservée aux administrateurs.");
    }
    const csrf = await alice.page.locator("header input[name=csrf]").getAttribute("value");
    const posted = await alice.context.request.post(`${baseUrl}/console/admin/users/bob/disable`, { form: { csrf: csrf ?? "" }, maxRedirects: 0 });
    expect(posted.status()).toBe(403);
    expect((await live.seed.platform.accounts.find("bob"))?.disabled).toBe(false);
    await alice.context.close();
  });
});

describe("users, deleted", () => {
  it("deletes a user after a question, keeping the elements they own; never one's own account", async () => {
    const { platform } = live.seed;
    await platform.accounts.add({ login: "leaver", password: "leaver-pw", displayName: "Lee Ver", roles: ["editor"] });
    const leaver = (await platform.accounts.principal("leaver"))!;
    const kept = await platform.elements.createByApi(leaver, "AUTHOR", { values: { au_name: "Written by Lee" } });
    const { context, page } = await loggedIn("admin", 1280, "/console/admin/users/leaver");
    await page.getByRole("button", { name: "Delete the account" }).click();
    // Nothing is deleted before the answer to the question.
    expect(await heading(page)).toBe("Delete the user leaver?");
    expect(await platform.accounts.find("leaver")).toBeDefined();
    expect(await page.locator("main").innerText()).toContain("the elements it owns stay");
    await page.getByRole("link", { name: "Cancel" }).click();
    expect(await heading(page)).toBe("User Lee Ver");
    await page.getByRole("button", { name: "Delete the account" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    expect(new URL(page.url()).pathname).toBe("/console/admin/users");
    expect(await page.getByRole("status").textContent()).toBe("The user leaver is deleted; the 1 element it owned stays.");
    expect(await platform.accounts.find("leaver")).toBeUndefined();
    expect(await page.getByRole("link", { name: "leaver", exact: true }).count()).toBe(0);
    expect((await platform.elements.read(await live.seed.principal("admin"), String(kept.revision.initid))).revision.values.au_name).toBe("Written by Lee");
    const gone = await page.goto(`${baseUrl}/console/admin/users/leaver/delete`);
    expect(gone?.status()).toBe(404);

    // One's own account: no button, the question refused, a forged post refused with the reason.
    await page.goto(`${baseUrl}/console/admin/users/admin`);
    expect(await page.getByRole("button", { name: "Delete the account" }).count()).toBe(0);
    expect(await page.locator("main").innerText()).toContain("You cannot delete your own account.");
    expect((await page.goto(`${baseUrl}/console/admin/users/admin/delete`))?.status()).toBe(400);
    const csrf = await page.locator("header input[name=csrf]").getAttribute("value");
    await context.request.post(`${baseUrl}/console/admin/users/admin/delete`, { form: { csrf: csrf ?? "" } });
    expect(await platform.accounts.find("admin")).toBeDefined();
    await context.close();

    // In French, at phone width, and refused to others.
    await platform.accounts.add({ login: "partant", password: "partant-pw" });
    const french = await loggedIn("admine", 390, "/console/admin/users/partant");
    await french.page.getByRole("button", { name: "Supprimer le compte" }).click();
    expect(await heading(french.page)).toBe("Supprimer l'utilisateur partant ?");
    await french.page.getByRole("button", { name: "Supprimer", exact: true }).click();
    expect(await french.page.getByRole("status").textContent()).toBe("L'utilisateur partant est supprimé.");
    expect(await french.page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await french.context.close();
    const alice = await loggedIn("alice");
    expect((await alice.page.goto(`${baseUrl}/console/admin/users/bob/delete`))?.status()).toBe(403);
    await alice.context.close();
  });
});

describe("users, administered in French", () => {
  it("speaks French on every user page, refusals included", async () => {
    const { context, page } = await loggedIn("admine", 390, "/console/admin/users");
    expect(await heading(page)).toBe("Utilisateurs");
    await page.getByRole("link", { name: "Ajouter un utilisateur" }).click();
    expect(await heading(page)).toBe("Nouvel utilisateur");
    await page.getByLabel("Identifiant").fill("carol");
    await page.getByRole("button", { name: "Ajouter un utilisateur" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("Identifiant : Cet identifiant est déjà pris.");
    await page.getByLabel("Identifiant").fill("claude");
    await page.getByRole("checkbox", { name: /newsroom/ }).check();
    await page.getByRole("button", { name: "Ajouter un utilisateur" }).click();
    const summary = await page.getByRole("alert").innerText();
    expect(summary).toContain("Rien n'est enregistré");
    expect(summary).toContain("Mot de passe : Donnez un mot de passe.");
    expect(await page.getByRole("checkbox", { name: /newsroom/ }).isChecked()).toBe(true);

    await page.goto(`${baseUrl}/console/admin/users/admine`);
    expect(await heading(page)).toBe("Utilisateur Amélie");
    expect(await page.locator("main").innerText()).toContain("Vous ne pouvez pas désactiver votre propre compte.");
    await page.goto(`${baseUrl}/console/admin/users/carol`);
    await page.getByRole("button", { name: "Désactiver" }).click();
    expect(await page.getByRole("status").textContent()).toBe("L'utilisateur carol est désactivé.");
    await page.getByRole("button", { name: "Activer" }).click();
    expect(await page.getByRole("status").textContent()).toBe("L'utilisateur carol est activé.");
    await page.getByRole("button", { name: "Définir le mot de passe" }).click();
    expect(await page.getByRole("alert").textContent()).toBe("Nouveau mot de passe : Donnez un mot de passe.");
    const missing = await page.goto(`${baseUrl}/console/admin/users/nobody`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).toBe("Cet utilisateur n'existe pas.");
    // Nothing wider than the phone's screen.
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await context.close();
  });
});

describe("the model, read-only", () => {
  it("shows the structures, a structure's fields with where each comes from, a lifecycle as a diagram, and the profiles", async () => {
    const { context, page } = await loggedIn("admin", 1280, "/console/admin/model");
    expect(await heading(page)).toBe("Model");
    const structures = page.locator("section[aria-labelledby=model-structures] tbody tr");
    const feature = (await structures.allInnerTexts()).find((row) => row.includes("FEATURE"))!;
    expect(feature.split("\t").map((cell) => cell.trim())).toEqual(["Feature", "FEATURE", "Article", "Article lifecycle", "PRF_ARTICLE", expect.stringMatching(/^\d+$/)]);
    const profile = page.locator("section[aria-labelledby=model-profiles] table").first();
    expect((await profile.locator("tbody tr").allInnerTexts()).map((row) => row.split("\t").map((cell) => cell.trim()))).toEqual([
      ["View", "role editor, role reader"], ["Edit", "role editor"], ["Delete", "role editor"], ["Create", "nobody (administrators only)"],
    ]);

    await page.getByRole("link", { name: "Feature" }).first().click();
    expect(await heading(page)).toBe("Structure Feature");
    const fields = await page.locator("section[aria-labelledby=model-fields] tbody tr").allInnerTexts();
    const row = (id: string) => fields.find((line) => line.split("\t")[1]?.trim() === id)?.split("\t").map((cell) => cell.trim());
    expect(row("fe_subtitle")).toEqual(["Subtitle", "fe_subtitle", "text", "read and write", "yes", "no", "this structure"]);
    expect(row("ar_title")?.[6]).toBe("Article");
    expect(row("ar_title")?.[0]).not.toBe("ar_title");

    await page.getByRole("link", { name: "Article lifecycle" }).click();
    expect(await heading(page)).toBe("Lifecycle Article lifecycle");
    const diagram = page.getByRole("img", { name: "Article lifecycle" });
    expect(await diagram.count()).toBe(1);
    expect(await page.locator("svg desc").textContent()).toContain("Submit: from Draft to Review");
    expect(await page.locator("svg .state-box").count()).toBe(4);
    expect(await page.locator("svg .transition").count()).toBe(5);
    // The boxes stay inside the picture and apart from each other.
    const boxes = await page.locator("svg .state-box rect").evaluateAll((rects) => rects.map((rect) => {
      // An SVGRect does not cross to the test: its numbers do.
      const { x, y, width, height } = (rect as unknown as { getBBox(): { x: number; y: number; width: number; height: number } }).getBBox();
      return { x, y, width, height };
    }));
    expect(boxes).toHaveLength(4);
    for (const [i, box] of boxes.entries()) for (const other of boxes.slice(i + 1)) {
      expect(box.x + box.width <= other.x || other.x + other.width <= box.x || box.y + box.height <= other.y || other.y + other.height <= box.y).toBe(true);
    }
    const transitions = await page.locator("section[aria-labelledby=model-transitions] tbody tr").allInnerTexts();
    expect(transitions.map((line) => line.split("\t").map((cell) => cell.trim()))).toContainEqual(["Publish publish", "Review", "Published", "role editor", "Date, Channels"]);
    await context.close();
  });

  it("speaks French on the model pages, and refuses others", async () => {
    const { context, page } = await loggedIn("admine", 390, "/console/admin/model/lifecycles/WFL_ARTICLE");
    expect(await heading(page)).toBe("Cycle de vie Cycle des articles");
    expect(await page.locator("svg desc").textContent()).toContain("Soumettre : de Brouillon à Relecture");
    expect(await page.locator("main").innerText()).toContain("premier état");
    await page.goto(`${baseUrl}/console/admin/model/structures/FEATURE`);
    expect(await heading(page)).toBe("Structure Reportage");
    expect(await page.locator("main").innerText()).toContain("cette structure");
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    const missing = await page.goto(`${baseUrl}/console/admin/model/lifecycles/NOPE`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).toBe("Ce cycle de vie n'existe pas.");
    await context.close();
    const alice = await loggedIn("alice");
    const refused = await alice.page.goto(`${baseUrl}/console/admin/model`);
    expect(refused?.status()).toBe(403);
    await alice.context.close();
  });
});

/** A receiver on loopback answering each POST with the next status of `statuses` (the last one again once they run out). */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push(body);
      response.writeHead(statuses.length > 1 ? statuses.shift()! : statuses[0]!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** One turn of the delivery worker, its steps through the webhooks façade: queue, claim, POST to the receiver, record. */
async function deliverOnce(): Promise<number> {
  const { webhooks } = live.seed.platform;
  await webhooks.enqueue();
  const claimed = await webhooks.claim("node-test", 10);
  for (const delivery of claimed) {
    // A receiver gone is an attempt that failed, as the worker records it.
    const outcome = await fetch(delivery.url, { method: "POST", body: delivery.body, redirect: "manual" })
      .then((answer) => ({ statusCode: answer.status }), (error: Error) => ({ error: String(error.cause ?? error.message) }));
    await webhooks.settle("node-test", delivery, outcome);
  }
  return claimed.length;
}

describe("webhooks, administered", () => {
  it("registers a webhook (refused at its field, then its secret shown once), shows its deliveries with their attempts, and retries one", async () => {
    const receiver = await startReceiver([503, 204]);
    const { context, page } = await loggedIn("admin", 1280, "/console/admin/webhooks");
    expect(await heading(page)).toBe("Webhooks");
    expect(await page.locator("main").innerText()).toContain("No webhook.");
    await page.getByLabel("URL").fill("not a url");
    await page.getByRole("checkbox", { name: /Element created/ }).check();
    await page.getByRole("button", { name: "Create the webhook" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("URL: Give an absolute http or https URL, without a user name or password.");
    expect(await page.getByRole("checkbox", { name: /Element created/ }).isChecked()).toBe(true);

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("checkbox", { name: "Author" }).check();
    await page.getByLabel("Description").fill("Authors to the newsletter");
    const created = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Create the webhook" }).click();
    expect((await created).status()).toBe(201);
    const secret = await page.getByLabel("Its signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    // Shown once: the page read again has no secret.
    await page.goto(`${baseUrl}/console/admin/webhooks`);
    expect(await page.getByLabel("Its signing secret").count()).toBe(0);
    expect(await page.locator("main").innerText()).not.toContain(secret);
    const row = page.locator("main table tbody tr");
    expect((await row.innerText()).split("\t").map((cell) => cell.trim())).toEqual([
      `${receiver.url} Authors to the newsletter`, "element.created", "AUTHOR", "active", "—", "Remove",
    ]);

    const admin = await live.seed.principal("admin");
    await live.seed.platform.elements.create(admin, { structure: "AUTHOR", values: { au_name: "Grace Hopper" } });
    expect(await deliverOnce()).toBe(1);
    await page.getByRole("link", { name: receiver.url, exact: true }).click();
    expect(await heading(page)).toBe(`Deliveries to ${receiver.url}`);
    const delivery = page.locator("main section").first();
    expect(await delivery.getByRole("heading").innerText()).toBe("Element created · pending");
    expect((await delivery.locator("tbody tr").innerText()).split("\t").map((cell) => cell.trim())).toEqual([
      "1", expect.stringMatching(/ UTC$/), "node-test", "503", expect.stringContaining("503"),
    ]);
    await delivery.getByRole("button", { name: /^Retry now \(/ }).click();
    expect(await page.getByRole("status").textContent()).toBe("The delivery is due again now.");
    expect(await deliverOnce()).toBe(1);
    await page.reload();
    expect(await page.locator("main section").first().getByRole("heading").innerText()).toBe("Element created · delivered");
    expect(await page.locator("main section").first().locator("tbody tr").count()).toBe(2);
    expect(await page.getByRole("button", { name: /^Retry/ }).count()).toBe(0);
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!)).toMatchObject({ type: "element.created" });
    await context.close();
    await receiver.close();
  });

  it("speaks French on the webhook pages, removes one, and refuses others and unknown ones", async () => {
    const { context, page } = await loggedIn("admine", 390, "/console/admin/webhooks");
    expect(await heading(page)).toBe("Webhooks");
    expect(await page.locator("main table").innerText()).toContain("actif");
    await page.locator("main table a").first().click();
    expect(await heading(page)).toMatch(/^Envois vers /);
    expect(await page.locator("main section").first().getByRole("heading").innerText()).toBe("Élément créé · livré");
    const missing = await page.goto(`${baseUrl}/console/admin/webhooks/wh_nosuch`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).toBe("Ce webhook ou cet envoi n'existe pas.");
    await page.goto(`${baseUrl}/console/admin/webhooks`);
    await page.getByLabel("URL").fill("ftp://example.com/");
    await page.getByRole("button", { name: "Créer le webhook" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("URL : Donnez une URL absolue http ou https");
    await page.getByRole("link", { name: /^Supprimer le webhook vers / }).click();
    expect(await heading(page)).toMatch(/^Supprimer le webhook vers .+ \?$/);
    await page.getByRole("button", { name: "Supprimer" }).click();
    expect(await page.getByRole("status").textContent()).toBe("Le webhook est supprimé avec ses envois.");
    expect(await page.locator("main").innerText()).toContain("Aucun webhook.");
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await context.close();

    const alice = await loggedIn("alice");
    const refused = await alice.page.goto(`${baseUrl}/console/admin/webhooks`);
    expect(refused?.status()).toBe(403);
    expect(await alice.page.getByRole("alert").textContent()).toBe("Cette page est réservée aux administrateurs.");
    await alice.context.close();
  });
});

/** A webhook's deliveries page, with a failed attempt, for the accessibility check. */
async function webhookPaths(): Promise<string[]> {
  const admin = await live.seed.principal("admin");
  const receiver = await startReceiver([500]);
  const { id } = await live.seed.platform.webhooks.create(admin, { url: receiver.url });
  await live.seed.platform.elements.create(admin, { structure: "AUTHOR", values: { au_name: "Hedy Lamarr" } });
  await deliverOnce();
  await receiver.close();
  return [`admin/webhooks/${id}`, `admin/webhooks/${id}/remove`];
}

/** axe-core's script, run in the page (the console itself needs no script: this context allows one for the check only). */
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe.each([1280, 390])("the administration's accessibility at %i px", (width) => {
  it("has no serious or critical axe-core violation on its pages", async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel("Login").fill("admin");
    await page.getByLabel("Password").fill("admin-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${baseUrl}/console/`);
    const found: string[] = [];
    for (const path of ["admin", "admin/users", "admin/new-user", "admin/users/alice", "admin/users/alice/delete", "admin/webhooks", "admin/model",
      "admin/model/structures/FEATURE", "admin/model/lifecycles/WFL_ARTICLE", ...await webhookPaths()]) {
      await page.goto(`${baseUrl}/console/${path}`);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      });
      // A box that scrolls a table on a narrow screen is reached by the keyboard: focusable itself, or holding a control.
      const unreachable = await page.evaluate<number>(`[...document.querySelectorAll(".scroll")]
        .filter((box) => box.getAttribute("tabindex") !== "0" && !box.querySelector("a[href], button, input, select, textarea")).length`);
      if (unreachable > 0) found.push(`/console/${path}: ${unreachable} scrolling box(es) the keyboard cannot reach`);
      found.push(...violations.map((violation) => `/console/${path} ${violation}`));
    }
    // A refused form too: its summary and invalid fields.
    await page.goto(`${baseUrl}/console/admin/new-user`);
    await page.getByRole("button", { name: "Add a user" }).click();
    await page.addScriptTag({ content: AXE });
    found.push(...await page.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run({ resultTypes: ["violations"] });
      return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `refused form ${v.id}`);
    }));
    expect(found).toEqual([]);
    await context.close();
  }, 180_000);
});
