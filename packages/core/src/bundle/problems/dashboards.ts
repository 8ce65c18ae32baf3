import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";

/** Dashboards: unique slugs, and the roles they name known. */
export function checkDashboards(view: BundleView, known: Known, report: Report): void {
  duplicates(view.dashboards, (d) => d.slug, "$.dashboards", "slug", "dashboard", report);
  view.dashboards.forEach((dashboard, i) => {
    dashboard?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.dashboards[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
  });
}
