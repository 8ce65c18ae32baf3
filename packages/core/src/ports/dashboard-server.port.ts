/** How a dashboard is named on the dashboard server. */
export type DashboardRef = { readonly id: number } | { readonly slug: string } | { readonly uuid: string };

/** A dashboard as the dashboard server describes it. */
export interface ServerDashboard {
  /** Its identifier on the server. */
  readonly id: number;
  /** The uuids that name it on the server: its own and, when it is embedded, its embedding's. */
  readonly uuids: readonly string[];
  readonly title: string;
  readonly published: boolean;
  /** ISO 8601 in UTC, without time zone, with fractional seconds (`2021-05-05T13:15:31.442937`). */
  readonly changedOn: string;
  /** Who made the last change; empty when the server does not say. */
  readonly changedByName: string;
  /** Its slug on the server, when it has one (not the platform's slug). */
  readonly slug: string | null;
  /** The absolute address where a person views it. */
  readonly url: string;
}

/**
 * The external dashboard server (Apache Superset). Implementations answer
 * within their own time limit and fail with a LineageError of the DASH01xx
 * codes (unreachable, login refused, too slow, unreadable answer).
 */
export interface DashboardServer {
  /** The server's address: the `domain` of API answers. */
  readonly address: string;
  /** Every dashboard the server holds. */
  list(): Promise<readonly ServerDashboard[]>;
  /** One dashboard; undefined when the server has none by that reference. */
  dashboard(ref: DashboardRef): Promise<ServerDashboard | undefined>;
}
