import { isLineageError, LineageError, type FieldDescription, type Platform, type Principal, type RenderedValue } from "@lineage/core";
import { Hono, type Context } from "hono";
import { html } from "hono/html";
import * as v from "valibot";
import type { HttpAuth } from "../authentication/http-auth.ts";
import { pageAuthentication } from "../authentication/page-authentication.ts";
import { sessionFormToken } from "../authentication/session-form-token.ts";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { CONSOLE_HEADERS, consolePage, type ConsolePageOptions, type Fragment } from "./console-page.ts";
import { consoleText, type ConsoleText } from "./console-text.ts";
import { bodyLimit } from "../body-limit.ts";
import { adminPage, createTokenPage, reindexPage, revokeTokenPage } from "./admin-page.ts";
import { dashboardsPage } from "./dashboards-page.ts";
import { editForm, enumeratesOf, postedFormValues, postedValues, refusalOf, storedFormValues, withColumnCounts } from "./edit-form.ts";
import { withoutSets } from "./field-groups.ts";
import { elementPage, trashedElementPage } from "./element-page.ts";
import { checkFormToken } from "./form-token.ts";
import { transitionPage } from "./lifecycle-page.ts";
import { listPage, type ListKind } from "./list-page.ts";
import { MAX_CONSOLE_UPLOAD, postedForm } from "./posted-form.ts";
import { revisionsPage } from "./revisions-page.ts";
import { searchPage } from "./search-page.ts";
import { runBulk } from "./bulk-actions.ts";
import { homePage } from "./home-page.ts";
import { labelsOf, refusalText } from "./refusal-text.ts";
import { flashMessage, setFlash, takeFlash, type Flash } from "./flash.ts";
import { changeViewSharing, openView, saveView } from "./saved-views.ts";
import { adminConsoleRoutes } from "./admin-routes.ts";
import { editableFields } from "./edit-form.ts";
import { formText } from "./form-text.ts";
import { isRelation, pickersAsPosted, relationPickers, relationTargets, settledRelations, type Picker } from "./relation-picker.ts";
import { formRoutes } from "./form-routes.ts";

/** What a page handler answers: the page, its status when not 200, or a redirection after a change. */
type PageAnswer = { title: string; body: Fragment; current?: ConsolePageOptions["current"]; status?: number } | { redirect: string; flash?: Flash | undefined };

/** Makes a page for the person; `csrf` is their session's form token, which every form that changes something carries. */
type PageMaker = (principal: Principal, t: ConsoleText, csrf: string | undefined) => Promise<PageAnswer>;

/** Answers a console page; a refusal of the use cases (an unknown element, a bad order...) is a page with its message and status. */
function consoleHandler(auth: HttpAuth, make: (c: Context<HttpEnv>) => PageMaker) {
  return async (c: Context<HttpEnv>) => {
    const principal = c.get("principal");
    const t = consoleText(principal.account.locale);
    const csrf = await sessionFormToken(c, auth, principal);
    const options = { principal, logoutCsrf: csrf };
    try {
      const page = await make(c)(principal, t, csrf);
      if ("redirect" in page) {
        if (page.flash) setFlash(c, page.flash);
        return c.redirect(page.redirect, 303);
      }
      const flash = flashMessage(takeFlash(c), csrf, t);
      return c.html(await consolePage({ ...options, ...page }, html`${flash}${page.body}`), (page.status ?? 200) as 200, CONSOLE_HEADERS);
    } catch (error) {
      if (!isLineageError(error)) throw error;
      const body = html`<p role="alert" class="alert">${t.refusal(error.code) ?? refusalText(error, principal.account.locale)}</p><p><a href="/console/">${t.back}</a></p>`;
      return c.html(await consolePage({ ...options, title: t.error }, body), error.status as 400, CONSOLE_HEADERS);
    }
  };
}

/**
 * The console (issue 21), at /console/: pages a person reads the content through, built on the
 * same use cases and rights as the API. Server-rendered, without script.
 */
export function consoleRoutes(auth: HttpAuth, platform: Platform): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.use("/console/*", pageAuthentication(auth));
  app.use("/console", pageAuthentication(auth));

  app.get("/console", describedRoute(DESCRIBED.home, consoleHandler(auth, () => (principal, t) => homePage(platform, principal, t))));
  app.get("/console/structures", describedRoute(DESCRIBED.structures, consoleHandler(auth, () => async (principal, t) => {
    const structures = await platform.structures.list(principal);
    const body = structures.length === 0 ? html`<p>${t.noStructures}</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">${t.structure}</th><th scope="col">${t.name}</th><th scope="col">${t.elements}</th><th scope="col">${t.inTrash}</th></tr></thead>
<tbody>${structures.map((s) => html`<tr>
<td><img src="${s.icon}" alt="" width="24" height="24"> <a href="/console/elements?structure=${encodeURIComponent(s.name)}">${s.title}</a></td>
<td><code>${s.name}</code></td><td class="number">${s.alive}</td><td class="number">${s.deleted}</td></tr>`)}</tbody>
</table></div>`;
    return { title: t.structures, body, current: "structures" };
  })));

  const list = (kind: ListKind) => consoleHandler(auth, (c) => (principal, t, csrf) => listPage(c, platform, kind, principal, t, csrf));
  app.get("/console/elements", describedRoute(DESCRIBED.elements, list("elements")));
  app.get("/console/trash", describedRoute(DESCRIBED.trash, list("trash")));

  app.get("/console/elements/:docid", describedRoute(DESCRIBED.element, consoleHandler(auth, (c) => (principal, t, csrf) => elementPage(c, platform, principal, t, csrf))));

  /** The structure's fields as the person sees them, and the enumerates its editable fields choose from. */
  const formContext = async (principal: Principal, structureName: string) => {
    const described = await platform.structures.read(principal, structureName, { fields: "family.structure,document.properties.title" });
    const definitions = await platform.structures.definitions();
    // Arrays with a column invisible to the person are shown, not edited: the count tells them.
    const groups = (described.data.family?.structure ?? {}) as Record<string, FieldDescription>;
    const structure = withColumnCounts(withoutSets(groups), definitions.structure(structureName));
    const enumerates = new Map(enumeratesOf(structure).flatMap((name) => {
      const found = definitions.enumerate(name);
      return found ? [[found.name, found] as const] : [];
    }));
    return { structure, groups, enumerates, targets: relationTargets(definitions, structureName), title: String(described.data.document.properties?.title ?? structureName) };
  };

  /** The pickers of a form's relation fields, and how a posted form settles their typed titles. */
  const relationsOf = async (principal: Principal, structure: Readonly<Record<string, FieldDescription>>, targets: ReturnType<typeof relationTargets>, values: Readonly<Record<string, string | readonly string[]>>) => {
    const text = formText(principal.account.locale);
    const fields = editableFields(structure).filter(isRelation);
    const pickers = await relationPickers(platform, principal, text, fields, targets, values);
    return { pickers, settle: (form: Awaited<ReturnType<typeof postedForm>>) => settledRelations(platform, principal, text, fields, pickers, form) };
  };

  /** Answers a refused save with the form again, at its field, with what the person typed. */
  const refusedForm = (error: unknown, principal: Principal, structure: Readonly<Record<string, FieldDescription>>, t: ConsoleText, form: (refusal: { field?: string; message: string }) => Fragment, title: string) => {
    const refusal = refusalOf(error);
    if (!refusal || !isLineageError(error)) throw error;
    const message = error.code === "CRUD0238" ? t.changedMeanwhile : refusalText(error, principal.account.locale, labelsOf(structure));
    return { title, status: error.status, body: form({ ...refusal, message }) };
  };

  const editPage = (c: Context<HttpEnv>): PageMaker => async (principal, t, csrf) => {
    const ref = c.req.param("docid") ?? "";
    const reading = await platform.elements.read(principal, ref, { fields: "document.properties.title,document.attributes" });
    if (!(await platform.elements.permissions(principal, reading.revision)).has("edit")) {
      throw new LineageError("CRUD0201", [ref, "Access not granted"], { userMessage: "Update forbidden" });
    }
    const { structure, groups, enumerates, targets } = await formContext(principal, reading.revision.structure);
    const stored = storedFormValues(structure, reading.revision.values);
    const title = t.editing(reading.revision.title);
    const relations = await relationsOf(principal, structure, targets, stored);
    const state = {
      action: `/console/elements/${reading.revision.initid}/edit`, csrf: csrf ?? "", etag: reading.etag, values: stored,
      attributes: (reading.data.document.attributes ?? {}) as Record<string, RenderedValue>, enumerates, locale: principal.account.locale, submit: t.save, groups,
      pickers: relations.pickers as ReadonlyMap<string, Picker>,
    };
    if (c.req.method === "GET") return { title, body: csrf ? editForm(structure, state, t) : html`<p role="alert" class="alert">${t.needSession}</p>` };
    const form = await postedForm(c);
    checkFormToken(csrf, form.one("csrf"), t);
    const settled = await relations.settle(form);
    const back = { ...state, values: { ...stored, ...postedFormValues(structure, form) }, pickers: pickersAsPosted(relations.pickers, form, "values" in settled ? undefined : settled) };
    if (!("values" in settled)) return { title, status: 400, body: editForm(structure, { ...back, refusal: { field: settled.field, message: settled.message } }, t) };
    const values = { ...postedValues(structure, form, principal.account.locale), ...settled.values };
    try {
      await platform.elements.update(principal, ref, { values, ifMatch: form.one("etag") });
      return { redirect: `/console/elements/${reading.revision.initid}`, flash: { message: t.saved } };
    } catch (error) {
      // What the person typed stays in the form (files must be chosen again); the new ETag makes the next save theirs to decide.
      return refusedForm(error, principal, structure, t, (refusal) => editForm(structure, { ...back, refusal }, t), title);
    }
  };

  const createPage = (c: Context<HttpEnv>): PageMaker => async (principal, t, csrf) => {
    const family = c.req.param("family") ?? "";
    const { structure, groups, enumerates, targets, title: structureTitle } = await formContext(principal, family);
    if (!(await platform.elements.mayCreate(principal, family))) throw new LineageError("API0204", [family]);
    const title = t.creating(structureTitle);
    const relations = await relationsOf(principal, structure, targets, {});
    const state = {
      action: `/console/structures/${encodeURIComponent(family)}/new`, csrf: csrf ?? "", etag: "", values: {},
      attributes: {}, enumerates, locale: principal.account.locale, submit: t.create, groups, pickers: relations.pickers as ReadonlyMap<string, Picker>,
    };
    if (c.req.method === "GET") return { title, body: csrf ? editForm(structure, state, t) : html`<p role="alert" class="alert">${t.needSession}</p>` };
    const form = await postedForm(c);
    checkFormToken(csrf, form.one("csrf"), t);
    const settled = await relations.settle(form);
    const back = { ...state, values: postedFormValues(structure, form), pickers: pickersAsPosted(relations.pickers, form, "values" in settled ? undefined : settled) };
    if (!("values" in settled)) return { title, status: 400, body: editForm(structure, { ...back, refusal: { field: settled.field, message: settled.message } }, t) };
    const values = { ...postedValues(structure, form, principal.account.locale), ...settled.values };
    try {
      const created = await platform.elements.createByApi(principal, family, { values });
      return { redirect: `/console/elements/${created.revision.initid}`, flash: { message: t.created_(created.revision.title) } };
    } catch (error) {
      return refusedForm(error, principal, structure, t, (refusal) => editForm(structure, { ...back, refusal }, t), title);
    }
  };
  app.get("/console/structures/:family/new", describedRoute(DESCRIBED.createForm, consoleHandler(auth, createPage)));
  app.post("/console/structures/:family/new", bodyLimit(UPLOAD_LIMIT), describedRoute(DESCRIBED.create, consoleHandler(auth, createPage)));

  app.get("/console/elements/:docid/edit", describedRoute(DESCRIBED.editForm, consoleHandler(auth, editPage)));
  app.post("/console/elements/:docid/edit", bodyLimit(UPLOAD_LIMIT), describedRoute(DESCRIBED.edit, consoleHandler(auth, editPage)));

  // Delete asks first (a page of its own: no script needed); the message after it offers to undo.
  app.get("/console/elements/:docid/delete", describedRoute(DESCRIBED.deleteForm, consoleHandler(auth, (c) => async (principal, t, csrf) => {
    const reading = await platform.elements.read(principal, c.req.param("docid") ?? "", { fields: "document.properties.title" });
    const initid = reading.revision.initid;
    const title = t.deleteTitle(reading.revision.title);
    if (!csrf) return { title, body: html`<p role="alert" class="alert">${t.needSession}</p>` };
    return {
      title, body: html`<p>${t.deleteQuestion}</p><form method="post" action="/console/elements/${initid}/delete" class="actions">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="danger">${t.moveToTrash}</button> <a href="/console/elements/${initid}">${t.cancel}</a></form>`,
    };
  })));
  app.post("/console/elements/:docid/delete", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.delete, consoleHandler(auth, (c) => async (principal, t, csrf) => {
    checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
    const deleted = await platform.elements.delete(principal, c.req.param("docid") ?? "");
    return {
      redirect: `/console/elements?structure=${encodeURIComponent(deleted.revision.structure)}`,
      flash: { message: t.movedToTrash(deleted.revision.title), undo: deleted.revision.initid },
    };
  })));
  app.post("/console/trash/:docid/restore", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.restore, consoleHandler(auth, (c) => async (principal, t, csrf) => {
    checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
    const restored = await platform.trash.restore(principal, c.req.param("docid") ?? "", { document: { properties: { status: "alive" } } });
    return { redirect: `/console/elements/${restored.revision.initid}`, flash: { message: t.restored(restored.revision.title) } };
  })));
  app.get("/console/trash/:docid", describedRoute(DESCRIBED.trashElement, consoleHandler(auth, (c) => (principal, t, csrf) => trashedElementPage(c, platform, principal, t, csrf))));
  app.post("/console/bulk", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.bulk, consoleHandler(auth, (c) => (principal, t, csrf) => runBulk(c, platform, principal, t, csrf))));
  app.post("/console/views", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.saveView, consoleHandler(auth, (c) => (principal, t, csrf) => saveView(c, platform, principal, t, csrf))));
  app.get("/console/views/:view", describedRoute(DESCRIBED.view, consoleHandler(auth, (c) => (principal) => openView(c, platform, principal))));
  app.post("/console/views/:view/sharing", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.viewSharing,
    consoleHandler(auth, (c) => (principal, t, csrf) => changeViewSharing(c, platform, principal, t, csrf))));

  app.route("/", formRoutes(platform));
  app.get("/console/search", describedRoute(DESCRIBED.search, consoleHandler(auth, (c) => (principal, t) => searchPage(c, platform, principal, t))));

  const transition = () => consoleHandler(auth, (c) => (principal, t, csrf) => transitionPage(c, platform, principal, t, csrf));
  app.get("/console/elements/:docid/transitions/:transition", describedRoute(DESCRIBED.transitionForm, transition()));
  app.post("/console/elements/:docid/transitions/:transition", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.transition, transition()));
  app.get("/console/elements/:docid/revisions", describedRoute(DESCRIBED.revisions, consoleHandler(auth, (c) => (principal, t) => revisionsPage(c, platform, principal, t))));
  app.get("/console/dashboards", describedRoute(DESCRIBED.dashboards, consoleHandler(auth, () => (principal, t) => dashboardsPage(platform, principal, t))));

  app.get("/console/admin", describedRoute(DESCRIBED.admin, consoleHandler(auth, () => (principal, t, csrf) => adminPage(platform, principal, t, csrf))));
  app.post("/console/admin/tokens", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.createToken,
    consoleHandler(auth, (c) => (principal, t, csrf) => createTokenPage(c, platform, principal, t, csrf))));
  app.post("/console/admin/tokens/:token/revoke", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.revokeToken,
    consoleHandler(auth, (c) => (principal, t, csrf) => revokeTokenPage(c, platform, principal, t, csrf))));
  app.post("/console/admin/search/reindex", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.reindex,
    consoleHandler(auth, (c) => (principal, t, csrf) => reindexPage(c, platform, principal, t, csrf))));
  adminConsoleRoutes(app, platform, (make) => consoleHandler(auth, make));
  // Any other address under /console: the console's own "no such page", in the person's language (not the API's JSON).
  app.all("/console/*", consoleHandler(auth, () => async () => {
    throw new LineageError("API0004", []);
  }));
  return app;
}

const FORM_LIMIT = 256 * 1024;
/** Forms that may carry a file: the file and the rest of the form. */
const UPLOAD_LIMIT = MAX_CONSOLE_UPLOAD + FORM_LIMIT;

const page = (description: string) => ({ contentType: "text/html", description });
const REFUSED = [
  { status: 302, contentType: null, description: "No session: redirect to the login form, then back" },
  { status: 403, ...page("Not allowed, or a form without the session's form token: the page with the message") },
  { status: 400, ...page("A parameter was refused (an order the list does not take...): the page with the message") },
  { status: 404, ...page("No such element or structure the person may view: the page with the message") },
];

/** The descriptions of the console's pages, for the OpenAPI document. */
const FORM_POST = (fields: v.ObjectEntries) => ({ content: { "application/x-www-form-urlencoded": v.object({ csrf: v.pipe(v.string(), v.description("The session's form token")), ...fields }) } });
/** An element's form: `f_ID` per field (repeated for lists and array columns), multipart when it has a file input. */
const ELEMENT_FORM = (fields: v.ObjectEntries) => {
  const schema = v.pipe(v.object({ csrf: v.pipe(v.string(), v.description("The session's form token")), ...fields }),
    v.description("Besides these, `f_ID` for each field the form edits: repeated for a list and for each column of an array, a file in multipart"));
  return { content: { "application/x-www-form-urlencoded": schema, "multipart/form-data": schema } };
};
const TOO_LARGE = { status: 413, ...page("A file over the upload limit (API0102): the page with the message; a body over the form's limit is refused before the page (API0010)") };
const ADMIN_REFUSED = REFUSED.map((answer) => (answer.status === 403 ? { status: 403, ...page("Not an administrator (ROUTES0131), or a form without the session's form token: the page with the message") } : answer));
const DESCRIBED: Record<"structures" | "elements" | "trash" | "element" | "search" | "editForm" | "edit" | "createForm" | "create" | "delete" | "restore"
  | "transitionForm" | "transition" | "revisions" | "dashboards" | "admin" | "createToken" | "revokeToken" | "reindex"
  | "deleteForm" | "trashElement" | "bulk" | "saveView" | "view" | "viewSharing" | "home", RouteDescription> = {
  home: { tag: "Console", summary: "The console's home: recent changes, the person's drafts, saved views and folders", authenticated: false, response: page("The page"), otherResponses: REFUSED },
  deleteForm: { tag: "Console", summary: "The console: the question before an element goes to the trash", authenticated: false, response: page("The page"), otherResponses: REFUSED },
  trashElement: { tag: "Console", summary: "The console: an element in the trash, read-only, with its restore button", authenticated: false, response: page("The page"), otherResponses: REFUSED },
  bulk: { tag: "Console", summary: "The console: an action on the rows selected in a list (trash, folder, transition)", authenticated: false,
    body: FORM_POST({
      action: v.pipe(v.string(), v.description("`trash`, `folder:FOLDER`, `unfolder:FOLDER` or `transition:ID`")),
      ids: v.pipe(v.string(), v.description("An element's initid (repeated, at most 100)")),
      return: v.optional(v.pipe(v.string(), v.description("The console page to go back to"))),
    }),
    response: { status: 303, contentType: null, description: "Done: back to the list, with a message naming what was refused" }, otherResponses: REFUSED },
  saveView: { tag: "Console", summary: "The console: save a list as a view (a REPORT of the person's)", authenticated: false,
    body: FORM_POST({
      title: v.string(), structure: v.optional(v.string()), filter: v.optional(v.pipe(v.string(), v.description("The API's `filter` (JSON)"))),
      orderBy: v.optional(v.string()), columns: v.optional(v.pipe(v.string(), v.description("A column (repeated)"))), size: v.optional(v.string()),
    }),
    response: { status: 303, contentType: null, description: "Saved: to the view" }, otherResponses: REFUSED },
  viewSharing: { tag: "Console", summary: "The console: change who sees a saved view (its owner only): private, or shared under a profile for shared views", authenticated: false,
    body: FORM_POST({
      share: v.optional(v.pipe(v.string(), v.description("The profile to share the view under; empty: only its owner sees it"))),
      return: v.optional(v.pipe(v.string(), v.description("The console page to go back to"))),
    }),
    response: { status: 303, contentType: null, description: "Back to the list, with a message" }, otherResponses: REFUSED },
  view: { tag: "Console", summary: "The console: open a saved view or search, as the list page it describes", authenticated: false,
    response: { status: 303, contentType: null, description: "To the list page of the view" }, otherResponses: REFUSED },
  transitionForm: { tag: "Console", summary: "The console: the form of a transition, with its parameters and a comment", authenticated: false,
    response: page("The form"), otherResponses: REFUSED },
  transition: { tag: "Console", summary: "The console: run a transition from its form", authenticated: false,
    body: FORM_POST({ comment: v.optional(v.pipe(v.string(), v.description("Text added to the history"))) }),
    response: { status: 303, contentType: null, description: "Run: to the element's page" },
    otherResponses: REFUSED.map((answer) => (answer.status === 403 ? { status: 403, ...page("Not allowed, a guard refused the transition (WFL0300: the form again, with its message), or no form token") } : answer)) },
  revisions: { tag: "Console", summary: "The console: an element's revisions, and two of them side by side", authenticated: false,
    query: v.object({
      a: v.optional(v.pipe(v.string(), v.description("The revision on the left (the one before the latest by default)"))),
      b: v.optional(v.pipe(v.string(), v.description("The revision on the right (the latest by default)"))),
    }),
    response: page("The page"), otherResponses: REFUSED },
  dashboards: { tag: "Console", summary: "The console: the dashboards the person may view, each opening in the dashboard server", authenticated: false,
    response: page("The page"), otherResponses: REFUSED },
  admin: { tag: "Console", summary: "The console: administration (users, access tokens, search domains); administrators only", authenticated: false,
    response: page("The page"), otherResponses: ADMIN_REFUSED },
  createToken: { tag: "Console", summary: "The console: create an access token (administrators)", authenticated: false,
    body: FORM_POST({
      login: v.pipe(v.string(), v.description("The account the token acts as")),
      routes: v.pipe(v.string(), v.description("One route a line: `METHODS PATTERN`")),
      expiry: v.pipe(v.string(), v.description("Seconds it lives; -1 for ever")),
      description: v.optional(v.string()),
      oneshot: v.optional(v.pipe(v.literal("1"), v.description("One use only"))),
    }),
    response: { status: 201, ...page("The administration page, with the token's secret shown this once") }, otherResponses: ADMIN_REFUSED },
  revokeToken: { tag: "Console", summary: "The console: revoke an access token (administrators)", authenticated: false, body: FORM_POST({}),
    response: { status: 303, contentType: null, description: "Revoked: to the administration page" }, otherResponses: ADMIN_REFUSED },
  reindex: { tag: "Console", summary: "The console: reindex what is outdated in the search domains (administrators)", authenticated: false, body: FORM_POST({}),
    response: page("The administration page, with how many elements were reindexed"), otherResponses: ADMIN_REFUSED },
  editForm: { tag: "Console", summary: "The console: the form that edits an element", authenticated: false, response: page("The form"), otherResponses: REFUSED },
  createForm: { tag: "Console", summary: "The console: the form that creates an element of a structure", authenticated: false, response: page("The form"), otherResponses: REFUSED },
  create: { tag: "Console", summary: "The console: create an element from the form", authenticated: false, body: ELEMENT_FORM({}),
    response: { status: 303, contentType: null, description: "Created: to the new element's page" }, otherResponses: [...REFUSED, TOO_LARGE] },
  edit: { tag: "Console", summary: "The console: save an element's form", authenticated: false,
    body: ELEMENT_FORM({ etag: v.pipe(v.string(), v.description("The ETag the form was made from: a save over a newer one is refused")) }),
    response: { status: 303, contentType: null, description: "Saved: to the element's page" },
    otherResponses: [...REFUSED, TOO_LARGE, { status: 412, ...page("Someone else saved the element meanwhile: the form again, with what the person typed") }] },
  delete: { tag: "Console", summary: "The console: put an element in the trash", authenticated: false, body: FORM_POST({}),
    response: { status: 303, contentType: null, description: "Deleted: to the trash" }, otherResponses: REFUSED },
  restore: { tag: "Console", summary: "The console: restore an element from the trash", authenticated: false, body: FORM_POST({}),
    response: { status: 303, contentType: null, description: "Restored: to the element's page" }, otherResponses: REFUSED },
  structures: { tag: "Console", summary: "The console: the structures the person may view, with their counts", authenticated: false, response: page("The page"), otherResponses: REFUSED },
  elements: { tag: "Console", summary: "The console: a list of elements, all or of one structure, sorted and paged, with chosen columns", authenticated: false,
    query: v.object({
      structure: v.optional(v.pipe(v.string(), v.description("A structure's name: its elements only"))),
      orderBy: v.optional(v.pipe(v.string(), v.description("`key:asc` or `key:desc`, as the API's lists take it"))),
      offset: v.optional(v.pipe(v.string(), v.description("How many elements to skip"))),
      columns: v.optional(v.pipe(v.string(), v.description("A field to show as a column (repeated); with `structure` only"))),
      folder: v.optional(v.pipe(v.string(), v.description("A folder: its content only"))),
      q: v.optional(v.pipe(v.string(), v.description("Words the titles contain"))),
      filter: v.optional(v.pipe(v.string(), v.description("The API's `filter` (JSON), and-ed with the rest"))),
      size: v.optional(v.pipe(v.string(), v.description("Page size: 10, 25, 50 or 100"))),
      f0: v.optional(v.pipe(v.string(), v.description("A filter row's field (f0 to f7), with its operator o0 and value v0 (repeated for `in`)"))),
      view: v.optional(v.pipe(v.string(), v.description("The saved view the list was opened from"))),
    }),
    response: page("The page"), otherResponses: REFUSED },
  trash: { tag: "Console", summary: "The console: the elements in the trash, sorted and paged", authenticated: false,
    query: v.object({ orderBy: v.optional(v.string()), offset: v.optional(v.string()) }), response: page("The page"), otherResponses: REFUSED },
  element: { tag: "Console", summary: "The console: one element, its fields by type, its state and its history", authenticated: false, response: page("The page"), otherResponses: REFUSED },
  search: { tag: "Console", summary: "The console: full-text search in a domain, with highlights", authenticated: false,
    query: v.object({ domain: v.optional(v.string()), q: v.optional(v.string()), offset: v.optional(v.string()) }), response: page("The page"), otherResponses: REFUSED },
};
