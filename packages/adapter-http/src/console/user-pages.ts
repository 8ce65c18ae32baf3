import { isLineageError, LineageError, translate, type Account, type Memberships, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { adminNav, requireAdministrator } from "./admin-nav.ts";
import { adminText, type AdminText } from "./admin-text.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { checkFormToken } from "./form-token.ts";
import { postedForm, type PostedForm } from "./posted-form.ts";

/*
 * The users' administration pages: the accounts, a form to add one, and each account's page
 * (display name, language, roles and groups; disable or enable; a new password), all through
 * the accounts façade's administrator operations. A refusal shows the form again with what was
 * typed and a summary linking to each refused field by its label, in the person's language.
 */

/** A refused field: its input's id and what is wrong, in the person's words. */
interface FieldRefusal {
  readonly field: string;
  readonly message: string;
}

/** The languages an account may be given from the form (the console speaks these); another stays as it is. */
const LANGUAGES = [{ code: "en", label: "English" }, { code: "fr", label: "Français" }] as const;

const page = (title: string, body: Fragment, status?: number) => ({ title, body, current: "admin" as const, ...(status ? { status } : {}) });

/** The person's words for what the core refused, each at its field. */
function refusalsOf(error: unknown, a: AdminText): FieldRefusal[] | undefined {
  if (!isLineageError(error)) return undefined;
  if (error.code === "ACCOUNT0001") return [{ field: "login", message: a.loginTaken }];
  if (error.code !== "ACCOUNT0002") return undefined;
  const problems = ((error.data as { problems?: { path: string; message: string }[] } | undefined)?.problems ?? []);
  return problems.map(({ path, message }) => {
    const key = path.replace(/\[\d+\]$/, "");
    const words: Record<string, string> = {
      login: a.loginRule, password: a.passwordNeeded, locale: a.localeRule, displayName: a.nameNeeded, disabled: a.cannotDisableSelf,
      roles: path === "roles" ? a.keepOwnAdmin : a.unknownRole, groups: a.unknownGroup,
    };
    if (key === "remove") return { field: key, message: message.includes("last") ? a.cannotDeleteLastAdmin : a.cannotDeleteSelf };
    return { field: key, message: words[key] ?? message };
  });
}

/** The labels of the form's inputs, by the name the core's problems give them. */
function labelsOf(t: ConsoleText, a: AdminText): Record<string, string> {
  return { login: t.login, displayName: a.displayName, password: a.password, locale: t.language, roles: t.roles, groups: t.groups, disabled: a.state };
}

/** The summary at the top of a refused form: each refusal linking to its field by its label. */
function refusalSummary(refusals: readonly FieldRefusal[], t: ConsoleText, a: AdminText): Fragment {
  const labels = labelsOf(t, a);
  return html`<div role="alert" class="alert summary"><p>${a.notSaved}</p><ul>${refusals.map((refusal) =>
    html`<li><a href="#user-${refusal.field}">${labels[refusal.field] ?? refusal.field}</a>${a.colon}${refusal.message}</li>`)}</ul></div>`;
}

/** The attributes of an input with a refusal: marked invalid, described by its message. */
const invalid = (field: string, refusals: readonly FieldRefusal[]) =>
  refusals.some((refusal) => refusal.field === field) ? html` aria-invalid="true" aria-describedby="user-${field}-error"` : "";
const refusalAt = (field: string, refusals: readonly FieldRefusal[]) => {
  const found = refusals.find((refusal) => refusal.field === field);
  return found ? html`<p id="user-${field}-error" class="guard">${found.message}</p>` : "";
};

/** What the form shows: an account's values, or what was typed. */
interface UserValues {
  readonly login: string;
  readonly displayName: string;
  readonly locale: string;
  readonly roles: readonly string[];
  readonly groups: readonly string[];
}

function valuesOf(account: Account): UserValues {
  return { login: account.login, displayName: account.displayName, locale: account.locale, roles: account.roles, groups: account.groups };
}

function postedValues(form: PostedForm, login: string): UserValues {
  return {
    login, displayName: (form.one("displayName") ?? "").trim(), locale: form.one("locale") ?? "en",
    roles: form.all("roles"), groups: form.all("groups"),
  };
}

/** The fields of the account form: for a new account its login and password too. */
function accountFields(values: UserValues, memberships: Memberships, principal: Principal, refusals: readonly FieldRefusal[], t: ConsoleText, a: AdminText, isNew: boolean): Fragment {
  const locale = principal.account.locale;
  const languages = LANGUAGES.some((language) => language.code === values.locale) ? LANGUAGES : [...LANGUAGES, { code: values.locale, label: values.locale }];
  const roleLabel = (id: string) => {
    const role = memberships.roles.find((candidate) => candidate.id === id);
    return role?.label ? translate(role.label, locale) : id;
  };
  const roles = [...memberships.roles];
  // The admin role needs no definition: offer it always.
  if (!roles.some((role) => role.id === "admin")) roles.unshift({ id: "admin" });
  return html`${isNew ? html`<div class="field"><label for="user-login">${t.login}</label>
<input id="user-login" name="login" value="${values.login}" required maxlength="64" autocomplete="off" aria-describedby="user-login-hint"${invalid("login", refusals)}>
<p id="user-login-hint" class="hint">${a.loginRule}</p>${refusalAt("login", refusals)}</div>` : ""}
<div class="field"><label for="user-displayName">${a.displayName}</label>
<input id="user-displayName" name="displayName" value="${values.displayName}" maxlength="200"${invalid("displayName", refusals)}>${refusalAt("displayName", refusals)}</div>
${isNew ? html`<div class="field"><label for="user-password">${a.password}</label>
<input id="user-password" name="password" type="password" autocomplete="new-password" required${invalid("password", refusals)}>${refusalAt("password", refusals)}</div>` : ""}
<div class="field"><label for="user-locale">${t.language}</label>
<select id="user-locale" name="locale"${invalid("locale", refusals)}>${languages.map((language) =>
    html`<option value="${language.code}"${language.code === values.locale ? html` selected` : ""}>${language.label}</option>`)}</select>${refusalAt("locale", refusals)}</div>
<fieldset id="user-roles" class="field"${invalid("roles", refusals)}><legend>${t.roles}</legend>
${roles.map((role) => html`<label class="choice"><input type="checkbox" name="roles" value="${role.id}"${values.roles.includes(role.id) ? html` checked` : ""}> ${roleLabel(role.id)}${role.label ? html` <code>${role.id}</code>` : ""}</label>`)}
${refusalAt("roles", refusals)}</fieldset>
<fieldset id="user-groups" class="field"${invalid("groups", refusals)}><legend>${t.groups}</legend>
${memberships.groups.length === 0 ? html`<p>${a.noGroups}</p>` : memberships.groups.map((group) => html`<label class="choice"><input type="checkbox" name="groups" value="${group.id}"${values.groups.includes(group.id) ? html` checked` : ""}> ${group.label ? translate(group.label, locale) : group.id}
<span class="hint">(${a.groupGives(group.roles.map(roleLabel).join(", "))})</span></label>`)}
${refusalAt("groups", refusals)}</fieldset>`;
}

/** GET /console/admin/users: every account, each linking to its page. */
export async function usersPage(platform: Platform, principal: Principal, t: ConsoleText) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const accounts = await platform.accounts.listAs(principal);
  const body = html`${adminNav("users", t, a)}<p><a href="/console/admin/new-user">${a.addUser}</a></p>
<div class="scroll"><table>
<thead><tr><th scope="col">${t.login}</th><th scope="col">${t.name}</th><th scope="col">${t.roles}</th><th scope="col">${t.groups}</th><th scope="col">${t.language}</th><th scope="col">${t.accountState}</th></tr></thead>
<tbody>${accounts.map((account) => html`<tr><td><a href="/console/admin/users/${encodeURIComponent(account.login)}"><code>${account.login}</code></a></td><td>${account.displayName}</td>
<td>${account.roles.join(", ")}</td><td>${account.groups.join(", ")}</td><td>${account.locale}</td><td>${account.disabled ? t.disabled : t.active}</td></tr>`)}</tbody>
</table></div>`;
  return page(t.users, body);
}

/** GET and POST /console/admin/new-user: the form of a new account, and its making. */
export async function newUserPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const memberships = await platform.accounts.membershipsAs(principal);
  const form = (values: UserValues, refusals: readonly FieldRefusal[]) => html`${adminNav("users", t, a)}
<form method="post" action="/console/admin/new-user" novalidate>${refusals.length > 0 ? refusalSummary(refusals, t, a) : ""}
<input type="hidden" name="csrf" value="${csrf ?? ""}">
${accountFields(values, memberships, principal, refusals, t, a, true)}
<p class="actions"><button type="submit">${a.addUser}</button> <a href="/console/admin/users">${t.cancel}</a></p></form>`;
  if (c.req.method === "GET") {
    if (!csrf) return page(a.newUser, html`<p role="alert" class="alert">${t.needSession}</p>`);
    return page(a.newUser, form({ login: "", displayName: "", locale: "en", roles: [], groups: [] }, []));
  }
  const posted = await postedForm(c);
  checkFormToken(csrf, posted.one("csrf"), t);
  const login = (posted.one("login") ?? "").trim();
  const values = postedValues(posted, login);
  const password = posted.one("password") ?? "";
  try {
    // An empty password is given as one: refused at its field (the console makes accounts that log in with a password).
    await platform.accounts.addAs(principal, {
      login, password, displayName: values.displayName === "" ? undefined : values.displayName, locale: values.locale, roles: values.roles, groups: values.groups,
    });
    return { redirect: `/console/admin/users/${encodeURIComponent(login)}`, flash: { message: a.userAdded(login) } };
  } catch (error) {
    const refusals = refusalsOf(error, a);
    if (!refusals) throw error;
    return page(a.newUser, form(values, refusals), 400);
  }
}

/** The account of the page's login, or the person's words for its absence (404). */
async function accountOf(platform: Platform, principal: Principal, login: string, a: AdminText): Promise<Account> {
  try {
    return await platform.accounts.readAs(principal, login);
  } catch (error) {
    if (isLineageError(error) && error.code === "ACCOUNT0003") throw new LineageError("ACCOUNT0003", [login], { userMessage: a.noSuchUser });
    throw error;
  }
}

/** An account's page: its form, its state with the button that changes it, and a new password. */
async function userPageBody(platform: Platform, principal: Principal, account: Account, values: UserValues, refusals: readonly FieldRefusal[], t: ConsoleText, a: AdminText, csrf: string | undefined) {
  const memberships = await platform.accounts.membershipsAs(principal);
  const base = `/console/admin/users/${encodeURIComponent(account.login)}`;
  const hidden = html`<input type="hidden" name="csrf" value="${csrf ?? ""}">`;
  if (!csrf) return html`${adminNav("users", t, a)}<p role="alert" class="alert">${t.needSession}</p>`;
  const isSelf = account.login === principal.account.login;
  return html`${adminNav("users", t, a)}
<p>${t.login} <code>${account.login}</code> · ${t.accountState}: <strong>${account.disabled ? t.disabled : t.active}</strong></p>
<form method="post" action="${base}" novalidate>${refusals.length > 0 ? refusalSummary(refusals, t, a) : ""}${hidden}
${accountFields(values, memberships, principal, refusals, t, a, false)}
<p class="actions"><button type="submit">${t.save}</button> <a href="/console/admin/users">${a.backToUsers}</a></p></form>
<section aria-labelledby="user-state"><h2 id="user-state">${a.state}</h2><p class="hint">${a.disableHint}</p>
${account.disabled
    ? html`<form method="post" action="${base}/enable">${hidden}<button type="submit">${a.enable}</button></form>`
    : isSelf ? html`<p>${a.cannotDisableSelf}</p>` : html`<form method="post" action="${base}/disable">${hidden}<button type="submit" class="danger">${a.disable}</button></form>`}
</section>
<section aria-labelledby="user-password-title"><h2 id="user-password-title">${a.resetPassword}</h2>
<form method="post" action="${base}/password" novalidate>${hidden}
<div class="field"><label for="user-new-password">${a.newPassword}</label>
<input id="user-new-password" name="password" type="password" autocomplete="new-password" required aria-describedby="user-new-password-hint">
<p id="user-new-password-hint" class="hint">${a.passwordHint}</p></div>
<button type="submit">${a.setPassword}</button></form></section>
<section aria-labelledby="user-delete"><h2 id="user-delete">${a.deleteUser}</h2><p class="hint">${a.deleteHint}</p>
${isSelf ? html`<p>${a.cannotDeleteSelf}</p>` : html`<form method="get" action="${base}/delete"><button type="submit" class="danger">${a.deleteUser}</button></form>`}
</section>`;
}

/** GET and POST /console/admin/users/LOGIN: an account's page, and the save of its form. */
export async function userPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const account = await accountOf(platform, principal, c.req.param("login") ?? "", a);
  const title = a.userTitle(account.displayName);
  if (c.req.method === "GET") return page(title, await userPageBody(platform, principal, account, valuesOf(account), [], t, a, csrf));
  const posted = await postedForm(c);
  checkFormToken(csrf, posted.one("csrf"), t);
  const values = postedValues(posted, account.login);
  try {
    await platform.accounts.editAs(principal, account.login, { displayName: values.displayName, locale: values.locale, roles: values.roles, groups: values.groups });
    return { redirect: `/console/admin/users/${encodeURIComponent(account.login)}`, flash: { message: a.userSaved(account.login) } };
  } catch (error) {
    const refusals = refusalsOf(error, a);
    if (!refusals) throw error;
    return page(title, await userPageBody(platform, principal, account, values, refusals, t, a, csrf), 400);
  }
}

/** POST /console/admin/users/LOGIN/disable and /enable. */
export async function userStatePage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined, disabled: boolean) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  const account = await accountOf(platform, principal, c.req.param("login") ?? "", a);
  const target = `/console/admin/users/${encodeURIComponent(account.login)}`;
  try {
    await platform.accounts.setDisabledAs(principal, account.login, disabled);
  } catch (error) {
    const refusals = refusalsOf(error, a);
    if (!refusals) throw error;
    return { redirect: target, flash: { message: refusals.map((refusal) => refusal.message).join(" "), refused: true } };
  }
  return { redirect: target, flash: { message: disabled ? a.userDisabled(account.login) : a.userEnabled(account.login) } };
}

/** POST /console/admin/users/LOGIN/password: a new password; the account's sessions end. */
export async function userPasswordPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const posted = await postedForm(c);
  checkFormToken(csrf, posted.one("csrf"), t);
  const account = await accountOf(platform, principal, c.req.param("login") ?? "", a);
  const target = `/console/admin/users/${encodeURIComponent(account.login)}`;
  const password = posted.one("password") ?? "";
  if (password === "") return { redirect: `${target}#user-password-title`, flash: { message: `${a.newPassword}${a.colon}${a.passwordNeeded}`, refused: true } };
  const { sessionsEnded } = await platform.accounts.setPasswordAs(principal, account.login, password);
  return { redirect: target, flash: { message: a.passwordSet(account.login, sessionsEnded) } };
}

/** GET and POST /console/admin/users/LOGIN/delete: the question before an account is deleted, and its deletion (its elements stay). */
export async function deleteUserPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  if (c.req.method === "GET") {
    const account = await accountOf(platform, principal, c.req.param("login") ?? "", a);
    const base = `/console/admin/users/${encodeURIComponent(account.login)}`;
    const title = `${a.deleteUserOf(account.login)}${a.questionMark}`;
    if (!csrf) return page(title, html`<p role="alert" class="alert">${t.needSession}</p>`);
    if (account.login === principal.account.login) return page(title, html`${adminNav("users", t, a)}<p role="alert" class="alert">${a.cannotDeleteSelf}</p><p><a href="${base}">${a.backToUsers}</a></p>`, 400);
    return page(title, html`${adminNav("users", t, a)}<p>${account.displayName} (<code>${account.login}</code>)</p><p>${a.deleteHint}</p>
<form method="post" action="${base}/delete" class="actions"><input type="hidden" name="csrf" value="${csrf}">
<button type="submit" class="danger">${a.deleteConfirm}</button> <a href="${base}">${t.cancel}</a></form>`);
  }
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  const account = await accountOf(platform, principal, c.req.param("login") ?? "", a);
  try {
    const { owned } = await platform.accounts.removeAs(principal, account.login);
    return { redirect: "/console/admin/users", flash: { message: a.userDeleted(account.login, owned) } };
  } catch (error) {
    const refusals = refusalsOf(error, a);
    if (!refusals) throw error;
    return { redirect: `/console/admin/users/${encodeURIComponent(account.login)}`, flash: { message: refusals.map((refusal) => refusal.message).join(" "), refused: true } };
  }
}
