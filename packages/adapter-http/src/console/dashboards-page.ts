import { isLineageError, type Platform, type Principal } from "@lineage/core";
import { html } from "hono/html";
import type { ConsoleText } from "./console-text.ts";

/**
 * The person's dashboards, as GET /api/v2/dashboard/list answers them (the same use case and
 * rights), each a link that opens it in the dashboard server. Without a server, or when it fails,
 * the page says so instead of the list.
 */
export async function dashboardsPage(platform: Platform, principal: Principal, t: ConsoleText) {
  const page = (body: ReturnType<typeof html>) => ({ title: t.dashboards, body, current: "dashboards" as const });
  if (!platform.dashboards.configured) return page(html`<p>${t.noDashboardServer}</p>`);
  let dashboards;
  try {
    dashboards = await platform.dashboards.list(principal);
  } catch (error) {
    if (!isLineageError(error) || !error.code.startsWith("DASH01")) throw error;
    return page(html`<p role="alert" class="alert">${t.dashboardServerFailed}</p>`);
  }
  if (dashboards.length === 0) return page(html`<p>${t.noDashboards}</p>`);
  return page(html`<div class="scroll"><table>
<thead><tr><th scope="col">${t.title}</th><th scope="col">${t.published}</th><th scope="col">${t.modified}</th><th scope="col">${t.modifiedBy}</th></tr></thead>
<tbody>${dashboards.map((dashboard) => html`<tr>
<td><a href="${dashboard.url}" rel="noopener noreferrer">${dashboard.title}</a></td>
<td>${dashboard.published ? t.yes : t.no}</td>
<td><time datetime="${dashboard.changed_on}">${dashboard.changed_on.slice(0, 16).replace("T", " ")}</time></td>
<td>${dashboard.changed_by_name}</td></tr>`)}</tbody>
</table></div>`);
}
