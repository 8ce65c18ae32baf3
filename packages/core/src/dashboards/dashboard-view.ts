import type { ServerDashboard } from "../ports/dashboard-server.port.ts";
import type { DashboardEntry } from "./dashboard-entry.ts";

/** A role allowed to view a dashboard, as answers show it; `id` only in lists. */
export interface DashboardOwner {
  readonly id?: string;
  readonly login: string;
  readonly displayName: string;
}

/** The Dashboard object of the API (api-v2.md, Dashboard); `owners` only for dashboard-admin. */
export interface DashboardView {
  readonly uuid: string;
  readonly title: string;
  readonly published: boolean;
  readonly changed_on: string;
  readonly changed_by_name: string;
  readonly slug: string;
  readonly url: string;
  readonly domain: string;
  readonly owners?: readonly DashboardOwner[];
}

/** The API object of a registered dashboard from what the server says of it. */
export function dashboardView(entry: DashboardEntry, found: ServerDashboard, domain: string, owners?: readonly DashboardOwner[]): DashboardView {
  return {
    uuid: entry.uuid,
    title: found.title,
    published: found.published,
    changed_on: found.changedOn,
    changed_by_name: found.changedByName,
    slug: entry.slug,
    url: found.url,
    domain,
    ...(owners ? { owners } : {}),
  };
}
