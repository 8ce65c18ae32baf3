import type { Platform, Principal } from "@lineage/core";
import type { Context, Handler, Hono } from "hono";
import * as v from "valibot";
import { bodyLimit } from "../body-limit.ts";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import type { ConsoleText } from "./console-text.ts";
import { lifecycleModelPage, modelPage, structureModelPage } from "./model-pages.ts";
import { createWebhookPage, removeWebhookPage, retryDeliveryPage, webhookPage, webhooksPage } from "./webhook-pages.ts";
import { deleteUserPage, newUserPage, userPage, userPasswordPage, userStatePage, usersPage } from "./user-pages.ts";

/*
 * The routes of the administration's own pages (users, the model, webhooks), beside the
 * administration page the console routes serve. Each answers through the console's page handler:
 * its refusals are pages in the person's language, its changes redirections with a message.
 */

/** A page handler as the console makes them: `make` answers the page for the person, with their session's form token. */
type PageHandlerOf = (make: (c: Context<HttpEnv>) => (principal: Principal, t: ConsoleText, csrf: string | undefined) => Promise<any>) => Handler<HttpEnv>;

const FORM_LIMIT = 256 * 1024;

/** Registers the administration's pages on the console's app. */
export function adminConsoleRoutes(app: Hono<HttpEnv>, platform: Platform, handler: PageHandlerOf): void {
  app.get("/console/admin/users", describedRoute(DESCRIBED.users, handler(() => (principal, t) => usersPage(platform, principal, t))));
  // GET and POST share their page: each its own handler, as each route has its own description.
  const newUser = () => handler((c) => (principal, t, csrf) => newUserPage(c, platform, principal, t, csrf));
  app.get("/console/admin/new-user", describedRoute(DESCRIBED.newUserForm, newUser()));
  app.post("/console/admin/new-user", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.newUser, newUser()));
  const user = () => handler((c) => (principal, t, csrf) => userPage(c, platform, principal, t, csrf));
  app.get("/console/admin/users/:login", describedRoute(DESCRIBED.user, user()));
  app.post("/console/admin/users/:login", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.editUser, user()));
  app.post("/console/admin/users/:login/disable", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.disableUser,
    handler((c) => (principal, t, csrf) => userStatePage(c, platform, principal, t, csrf, true))));
  app.post("/console/admin/users/:login/enable", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.enableUser,
    handler((c) => (principal, t, csrf) => userStatePage(c, platform, principal, t, csrf, false))));
  app.post("/console/admin/users/:login/password", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.userPassword,
    handler((c) => (principal, t, csrf) => userPasswordPage(c, platform, principal, t, csrf))));
  const deleteUser = () => handler((c) => (principal, t, csrf) => deleteUserPage(c, platform, principal, t, csrf));
  app.get("/console/admin/users/:login/delete", describedRoute(DESCRIBED.deleteUserForm, deleteUser()));
  app.post("/console/admin/users/:login/delete", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.deleteUser, deleteUser()));

  app.get("/console/admin/model", describedRoute(DESCRIBED.model, handler(() => (principal, t) => modelPage(platform, principal, t))));
  app.get("/console/admin/model/structures/:structure", describedRoute(DESCRIBED.structureModel,
    handler((c) => (principal, t) => structureModelPage(c, platform, principal, t))));
  app.get("/console/admin/model/lifecycles/:lifecycle", describedRoute(DESCRIBED.lifecycleModel,
    handler((c) => (principal, t) => lifecycleModelPage(c, platform, principal, t))));

  app.get("/console/admin/webhooks", describedRoute(DESCRIBED.webhooks, handler(() => (principal, t, csrf) => webhooksPage(platform, principal, t, csrf))));
  app.post("/console/admin/webhooks", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.createWebhook,
    handler((c) => (principal, t, csrf) => createWebhookPage(c, platform, principal, t, csrf))));
  app.get("/console/admin/webhooks/:webhook", describedRoute(DESCRIBED.webhook, handler((c) => (principal, t, csrf) => webhookPage(c, platform, principal, t, csrf))));
  const removeWebhook = () => handler((c) => (principal, t, csrf) => removeWebhookPage(c, platform, principal, t, csrf));
  app.get("/console/admin/webhooks/:webhook/remove", describedRoute(DESCRIBED.removeWebhookForm, removeWebhook()));
  app.post("/console/admin/webhooks/:webhook/remove", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.removeWebhook, removeWebhook()));
  app.post("/console/admin/webhooks/:webhook/deliveries/:delivery/retry", bodyLimit(FORM_LIMIT), describedRoute(DESCRIBED.retryDelivery,
    handler((c) => (principal, t, csrf) => retryDeliveryPage(c, platform, principal, t, csrf))));
}

const page = (description: string) => ({ contentType: "text/html", description });
const REFUSED = [
  { status: 302, contentType: null, description: "No session: redirect to the login form, then back" },
  { status: 403, ...page("Not an administrator (ROUTES0131), or a form without the session's form token: the page with the message") },
  { status: 404, ...page("No such account, webhook or model entry: the page with the message") },
];
const FORM_REFUSED = [...REFUSED, { status: 400, ...page("A value was refused: the form again, each refusal at its field and in a summary") }];
const FORM_POST = (fields: v.ObjectEntries) => ({ content: { "application/x-www-form-urlencoded": v.object({ csrf: v.pipe(v.string(), v.description("The session's form token")), ...fields }) } });
const redirect = (description: string) => ({ status: 303, contentType: null, description });
const ACCOUNT_FIELDS = {
  displayName: v.optional(v.pipe(v.string(), v.description("The name shown for the account"))),
  locale: v.optional(v.pipe(v.string(), v.description("The account's language: en, fr..."))),
  roles: v.optional(v.pipe(v.string(), v.description("A role (repeated); none: no role of its own"))),
  groups: v.optional(v.pipe(v.string(), v.description("A group (repeated); none: in no group"))),
};
const described = (summary: string, rest: Partial<RouteDescription> = {}): RouteDescription =>
  ({ tag: "Console", summary: `The console: ${summary} (administrators)`, authenticated: false, response: page("The page"), otherResponses: REFUSED, ...rest });

const DESCRIBED = {
  users: described("the user accounts, each with its roles, groups, language and state"),
  newUserForm: described("the form that adds a user account"),
  newUser: described("add a user account", {
    body: FORM_POST({ login: v.string(), password: v.pipe(v.string(), v.description("Its password, kept hashed")), ...ACCOUNT_FIELDS }),
    response: redirect("Added: to the account's page"), otherResponses: FORM_REFUSED,
  }),
  user: described("a user account: its form (display name, language, roles, groups), its state, a new password"),
  editUser: described("save a user account's display name, language, roles and groups", {
    body: FORM_POST(ACCOUNT_FIELDS), response: redirect("Saved: to the account's page, with a message"), otherResponses: FORM_REFUSED,
  }),
  disableUser: described("disable a user account: it logs in by no method, its sessions end", {
    body: FORM_POST({}), response: redirect("To the account's page, with a message (a refusal when it is the person's own)"),
  }),
  enableUser: described("enable a user account again", { body: FORM_POST({}), response: redirect("To the account's page, with a message") }),
  userPassword: described("set a user account's password; its sessions end", {
    body: FORM_POST({ password: v.string() }), response: redirect("To the account's page, with a message"),
  }),
  deleteUserForm: described("the question before a user account is deleted"),
  deleteUser: described("delete a user account with its sessions and access tokens; the elements it owns stay", {
    body: FORM_POST({}), response: redirect("To the users, with a message (a refusal, to the account's page, for the person's own account or the last administrator)"),
  }),
  model: described("the model, read-only: the structures, lifecycles and profiles (who may do what)"),
  structureModel: described("a structure, read-only: its fields with type, visibility, needed, multiple, and the ancestor each comes from"),
  lifecycleModel: described("a lifecycle, read-only: its states and transitions drawn as a diagram, and as a table"),
  webhooks: described("the webhooks, each with its status and latest delivery, and the form that registers one"),
  createWebhook: described("register a webhook", {
    body: FORM_POST({
      url: v.pipe(v.string(), v.description("Where each matching event is posted")),
      types: v.optional(v.pipe(v.string(), v.description("An event type (repeated); none: every type"))),
      structures: v.optional(v.pipe(v.string(), v.description("A structure's name (repeated); none: every structure"))),
      description: v.optional(v.string()),
    }),
    response: { status: 201, ...page("The webhooks page, with the new webhook's signing secret shown this once") }, otherResponses: FORM_REFUSED,
  }),
  webhook: described("a webhook's recent deliveries, newest first, with their attempts and errors"),
  removeWebhookForm: described("the question before a webhook is removed"),
  removeWebhook: described("remove a webhook with its deliveries", { body: FORM_POST({}), response: redirect("To the webhooks page, with a message") }),
  retryDelivery: described("send a webhook's delivery again now", { body: FORM_POST({}), response: redirect("To the webhook's deliveries, with a message") }),
} satisfies Record<string, RouteDescription>;
