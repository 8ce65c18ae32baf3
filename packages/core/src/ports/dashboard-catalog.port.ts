import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";

/** The dashboards bundles registered: which roles may view which dashboard of the server. */
export interface DashboardCatalog {
  dashboard(slug: string): DashboardEntry | undefined;
  /** Every registered dashboard, ordered by slug. */
  dashboards(): DashboardEntry[];
  /** Creates or replaces the entry with the same slug. */
  saveDashboard(entry: DashboardEntry): void;
}
