import type { Transport } from "./transport.ts";

/** A dashboard of the dashboard server (docs/dashboards.md). */
export interface Dashboard {
  readonly uuid: string;
  readonly title: string;
  readonly published: boolean;
  readonly changed_on: string;
  readonly changed_by_name: string;
  readonly slug: string;
  readonly url: string;
  readonly domain: string;
  /** Only for the role dashboard-admin. */
  readonly owners?: readonly { readonly displayName: string; readonly login: string; readonly id?: number }[];
}

/** Dashboards (docs/api.md, Dashboards). */
export interface DashboardsApi {
  /** GET /api/v2/dashboard/list: the dashboards the caller may view. */
  list(options?: { readonly signal?: AbortSignal }): Promise<Dashboard[]>;
  /** GET /api/v2/dashboard/info?ref=<slug>. */
  info(ref: string, options?: { readonly signal?: AbortSignal }): Promise<Dashboard>;
}

/** The dashboards area over a transport. */
export function dashboardsApi(transport: Transport): DashboardsApi {
  return {
    list: async (options = {}) => (await transport.json<Dashboard[]>({ method: "GET", path: "/api/v2/dashboard/list", signal: options.signal })).data,
    info: async (ref, options = {}) => (await transport.json<Dashboard>({ method: "GET", path: "/api/v2/dashboard/info", query: { ref }, signal: options.signal })).data,
  };
}
