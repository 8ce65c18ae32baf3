import type { LineageError } from "../errors/lineage-error.ts";
import type { DashboardRef, DashboardServer, ServerDashboard } from "../ports/dashboard-server.port.ts";

/** An in-memory DashboardServer whose dashboards and failure a test sets by hand. */
export interface MemoryDashboardServer extends DashboardServer {
  dashboards: ServerDashboard[];
  /** When set, every call fails with it (as a server that is down or refuses the login). */
  failure: LineageError | undefined;
}

/**
 * A DashboardServer for tests that need no I/O.
 * @example
 * const server = createMemoryDashboardServer({ dashboards: [serverDashboard({ id: 1, uuids: [uuid] })] });
 */
export function createMemoryDashboardServer(options: { address?: string; dashboards?: ServerDashboard[] } = {}): MemoryDashboardServer {
  const server: MemoryDashboardServer = {
    address: options.address ?? "http://superset.test",
    dashboards: options.dashboards ?? [],
    failure: undefined,
    async list() {
      if (server.failure) throw server.failure;
      return server.dashboards;
    },
    async dashboard(ref: DashboardRef) {
      if (server.failure) throw server.failure;
      return server.dashboards.find((d) =>
        "id" in ref ? d.id === ref.id : "slug" in ref ? d.slug === ref.slug : d.uuids.some((u) => u.toLowerCase() === ref.uuid.toLowerCase()));
    },
  };
  return server;
}
