import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";

/** The dashboards bundles registered: which roles may view which dashboard of the server. */
export interface DashboardCatalog {
  dashboard(slug: string): Promise<DashboardEntry | undefined>;
  /** Every registered dashboard, ordered by slug. */
  dashboards(): Promise<DashboardEntry[]>;
  /** Creates or replaces the entry with the same slug. */
  saveDashboard(entry: DashboardEntry): Promise<void>;
}
