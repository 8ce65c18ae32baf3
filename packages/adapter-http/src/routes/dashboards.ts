import { Hono } from "hono";
import * as v from "valibot";
import { LineageError } from "@lineage/core";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";

/** The query of GET /api/v2/dashboard/info: `ref`, the dashboard's slug in the platform. */
export const DashboardInfoQuerySchema = v.object({
  ref: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.description("The dashboard's slug in the platform (its `slug`, as a bundle registers it)"),
    v.examples(["newsroom-overview"]),
  ),
});

const text = (description: string) => v.pipe(v.string(), v.description(description));

/** A role allowed to view a dashboard. */
const DashboardOwnerSchema = v.object({
  id: v.optional(text("The role's id; in lists only")),
  login: text("The role's id"),
  displayName: text("The role's label in the user's language"),
});

/** The Dashboard object (api-v2.md, Dashboard). */
export const DashboardSchema = v.pipe(
  v.object({
    uuid: text("Identifier of the dashboard on the dashboard server"),
    title: v.string(),
    published: v.boolean(),
    changed_on: v.pipe(v.string(), v.description("Last change, ISO 8601 in UTC without time zone, with fractional seconds"), v.examples(["2021-05-05T13:15:31.442937"])),
    changed_by_name: text("Who made the last change"),
    slug: text("Identifier in the platform (the ref of /api/v2/dashboard/info)"),
    url: text("Address where to view it on the dashboard server"),
    domain: text("Address of the dashboard server"),
    owners: v.optional(v.pipe(v.array(DashboardOwnerSchema), v.description("Roles allowed to view it; shown only to role dashboard-admin"))),
  }),
  v.description("A dashboard of the external dashboard server (Apache Superset), with its live data"),
);

const SERVER_ERRORS = ["DASH0100", "DASH0101", "DASH0102", "DASH0103", "DASH0104"] as const;

const LIST: RouteDescription = {
  tag: "Dashboards", summary: "Dashboards the user may view",
    description: "The dashboards registered by bundles whose roles the user holds (all of them for admin and dashboard-admin), with the live data of the dashboard server. A server that cannot be reached, refuses the login or is too slow gives a 500.",
    response: { data: v.array(DashboardSchema) },
  errors: [...SERVER_ERRORS],
};
const INFO: RouteDescription = {
  tag: "Dashboards", summary: "One dashboard",
    query: DashboardInfoQuerySchema,
    response: { data: DashboardSchema },
  errors: ["DASH0001", "DASH0002", "DASH0003", "DASH0004", ...SERVER_ERRORS],
};

/**
 * The Dashboards routes (api-v2.md, Dashboards) over the platform's dashboard
 * server (`createPlatform({ dashboards })`); without one they answer DASH0100 (500). Only GET: the other methods answer 501.
 */
export function dashboardRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  app.get("/dashboard/list", describedRoute(LIST, async (c) => c.json(successEnvelope(await c.var.platform.dashboards.list(c.var.principal)))));
  app.get("/dashboard/info", describedRoute(INFO, async (c) => {
    const query = v.safeParse(DashboardInfoQuerySchema, { ref: c.req.query("ref") });
    if (!query.success) throw new LineageError("DASH0001");
    return c.json(successEnvelope(await c.var.platform.dashboards.read(c.var.principal, query.output.ref)));
  }));
  return app;
}
