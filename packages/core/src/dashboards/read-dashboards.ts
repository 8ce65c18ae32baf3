import type { Role } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { translate } from "../i18n/label.ts";
import type { DashboardCatalog } from "../ports/dashboard-catalog.port.ts";
import type { DashboardServer, ServerDashboard } from "../ports/dashboard-server.port.ts";
import { mayViewDashboard, seesDashboardOwners } from "./dashboard-access.ts";
import type { DashboardEntry } from "./dashboard-entry.ts";
import { dashboardView, type DashboardOwner, type DashboardView } from "./dashboard-view.ts";

/** What the dashboard use cases read: the registered dashboards, the roles' labels, and the server (undefined when none is configured). */
export interface DashboardSources {
  readonly catalog: DashboardCatalog;
  readonly roles: () => Promise<readonly Role[]>;
  readonly server: DashboardServer | undefined;
}

/**
 * The dashboards the principal may view (api-v2.md, GET /api/v2/dashboard/list),
 * ordered by title, with the server's live data. Registered dashboards the
 * server does not hold are left out.
 * @example
 * const views = await listDashboards({ catalog: store.catalog, roles: () => store.accounts.roles(), server }, principal);
 */
export async function listDashboards(sources: DashboardSources, principal: Principal): Promise<DashboardView[]> {
  const server = configuredServer(sources);
  const entries = (await sources.catalog.dashboards()).filter((entry) => mayViewDashboard(principal, entry));
  if (entries.length === 0) return [];
  const byUuid = new Map<string, ServerDashboard>();
  for (const found of await server.list()) for (const uuid of found.uuids) byUuid.set(uuid.toLowerCase(), found);
  // A uuid the list does not show may be an embedding's: the server finds those one by one.
  const matches = await Promise.all(entries.map(async (entry) => byUuid.get(entry.uuid.toLowerCase()) ?? (await server.dashboard({ uuid: entry.uuid }))));
  const owners = await ownersOf(sources, principal, true);
  return entries
    .flatMap((entry, i) => {
      const found = matches[i];
      return found ? [dashboardView(entry, found, server.address, owners?.(entry))] : [];
    })
    .sort((a, b) => a.title.localeCompare(b.title) || (a.slug < b.slug ? -1 : 1));
}

/**
 * One dashboard by its platform slug (api-v2.md, GET /api/v2/dashboard/info).
 * Fails with DASH0001 without a reference, DASH0002 for an unknown one,
 * DASH0003 when the principal may not view it, DASH0004 when the server does
 * not hold it, DASH01xx when the server is not configured or fails.
 */
export async function readDashboard(sources: DashboardSources, principal: Principal, ref: string | undefined): Promise<DashboardView> {
  if (ref === undefined || ref.trim() === "") throw new LineageError("DASH0001");
  const server = configuredServer(sources);
  const entry = await sources.catalog.dashboard(ref);
  if (!entry) throw new LineageError("DASH0002", [ref]);
  if (!mayViewDashboard(principal, entry)) throw new LineageError("DASH0003", [ref]);
  const found = await server.dashboard({ uuid: entry.uuid });
  if (!found) throw new LineageError("DASH0004", [ref, entry.uuid]);
  return dashboardView(entry, found, server.address, (await ownersOf(sources, principal, false))?.(entry));
}

function configuredServer(sources: DashboardSources): DashboardServer {
  if (!sources.server) throw new LineageError("DASH0100");
  return sources.server;
}

/** The owners of an entry in the principal's locale, or undefined when the principal may not see them. */
async function ownersOf(
  sources: DashboardSources, principal: Principal, withId: boolean,
): Promise<((entry: DashboardEntry) => DashboardOwner[]) | undefined> {
  if (!seesDashboardOwners(principal)) return undefined;
  const labels = new Map((await sources.roles()).map((role) => [role.id, role.label]));
  return (entry) => entry.roles.map((role) => {
    const displayName = translate(labels.get(role), principal.account.locale) || role;
    return withId ? { id: role, login: role, displayName } : { login: role, displayName };
  });
}
