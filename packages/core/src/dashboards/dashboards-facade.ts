import type { Principal } from "../accounts/principal.ts";
import type { DashboardServer } from "../ports/dashboard-server.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { DashboardView } from "./dashboard-view.ts";
import { listDashboards, readDashboard, type DashboardSources } from "./read-dashboards.ts";

/** Dashboards registered by bundles, with the dashboard server's live data. */
export interface DashboardsFacade {
  /** True when the platform was given a dashboard server. */
  readonly configured: boolean;
  /** GET /dashboard/list: the dashboards the principal may view, by title. */
  list(principal: Principal): Promise<DashboardView[]>;
  /** GET /dashboard/info?ref=: one dashboard by its slug. */
  read(principal: Principal, ref: string | undefined): Promise<DashboardView>;
}

/** The dashboards façade over a platform's context and its dashboard server (none configured: DASH0100). */
export function createDashboardsFacade(context: PlatformContext, server: DashboardServer | undefined): DashboardsFacade {
  const { store } = context;
  const sources: DashboardSources = { catalog: store.catalog, roles: () => store.accounts.roles(), server };
  return {
    configured: server !== undefined,
    list: (principal) => listDashboards(sources, principal),
    read: (principal, ref) => readDashboard(sources, principal, ref),
  };
}
