import { ADMIN_ROLE, requireAccess, type Principal } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import type { AdminText } from "./admin-text.ts";

/** The route the refusal names when someone who is no administrator asks for an administration page. */
export const ADMIN_PAGES = { route: "console::administration", anyRole: [ADMIN_ROLE] } as const;

/** Refuses (403 ROUTES0131) anyone but an administrator, before the page reads anything. */
export function requireAdministrator(principal: Principal): void {
  requireAccess(principal, ADMIN_PAGES);
}

/** The administration's own pages, as links above each of them. */
export type AdminSection = "overview" | "users" | "model" | "webhooks";

/** The links between the administration pages, the current one marked. */
export function adminNav(current: AdminSection, t: ConsoleText, a: AdminText): Fragment {
  const entry = (key: AdminSection, href: string, label: string) =>
    html`<li><a href="${href}"${current === key ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return html`<nav aria-label="${t.administration}" class="subnav"><ul class="actions plain">
${entry("overview", "/console/admin", t.administration)}
${entry("users", "/console/admin/users", t.users)}
${entry("model", "/console/admin/model", a.model)}
${entry("webhooks", "/console/admin/webhooks", a.webhooks)}
</ul></nav>`;
}
