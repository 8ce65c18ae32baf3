import type { Principal } from "../accounts/principal.ts";
import type { DashboardEntry } from "./dashboard-entry.ts";

/** The role that sees every dashboard and who may view each (its `owners`). */
export const DASHBOARD_ADMIN_ROLE = "dashboard-admin";

/** True when the principal may view the dashboard: one of its roles is the dashboard's, or it is admin or dashboard-admin. */
export function mayViewDashboard(principal: Principal, entry: DashboardEntry): boolean {
  return principal.isAdmin || principal.roles.has(DASHBOARD_ADMIN_ROLE) || entry.roles.some((role) => principal.roles.has(role));
}

/**
 * True when answers show the principal the dashboards' owners. The spec gives
 * them to role dashboard-admin only: admin sees every dashboard, but not the
 * owners unless it also holds dashboard-admin.
 */
export function seesDashboardOwners(principal: Principal): boolean {
  return principal.roles.has(DASHBOARD_ADMIN_ROLE);
}
