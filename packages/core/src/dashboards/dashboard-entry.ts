/**
 * A dashboard of the external dashboard server as a bundle registers it:
 * the platform's slug, the dashboard's uuid on the server, and the platform
 * roles that may view it (its `owners` in API answers).
 */
export interface DashboardEntry {
  readonly slug: string;
  readonly uuid: string;
  readonly roles: readonly string[];
}
