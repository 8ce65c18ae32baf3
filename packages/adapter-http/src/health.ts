import { LineageError } from "@lineage/core";
import { Hono } from "hono";
import { errorEnvelope, successEnvelope } from "./envelope.ts";
import type { HttpEnv } from "./http-env.ts";
import * as v from "valibot";
import { describedRoute, type RouteDescription } from "./openapi/index.ts";

/** Whether the server takes new work; flipped once, when it starts shutting down. */
export interface Readiness {
  readonly ready: boolean;
  /** Marks the server as stopping: /health answers 503 from now on. */
  stop(): void;
}

/** A readiness that is ready until stopped. */
export function createReadiness(): Readiness {
  let ready = true;
  return {
    get ready() {
      return ready;
    },
    stop() {
      ready = false;
    },
  };
}

/**
 * GET (and HEAD) /health for load balancers: 200 `{"status":"ready"}` while the
 * server takes work, 503 API0103 `{"status":"stopping"}` once it shuts down;
 * `building.searchDomains` names the search domains whose index is still being
 * loaded or built (their searches may answer 503 FSEA0004 meanwhile; every other
 * route works). Outside /api/: no credentials, no content negotiation, not versioned.
 */
export function healthRoutes(readiness: Readiness, building: () => readonly string[] = () => []): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.get("/health", describedRoute(HEALTH, (c) => {
    c.header("Cache-Control", "no-store");
    if (readiness.ready) return c.json(successEnvelope({ status: "ready", building: { searchDomains: building() } }));
    const { status, body } = errorEnvelope(new LineageError("API0103"));
    return c.json({ ...body, data: { status: "stopping" } }, status as 503);
  }));
  return app;
}

const HEALTH: RouteDescription = {
  tag: "Operations", summary: "Readiness for load balancers", authenticated: false,
    description: "200 {status: ready, building: {searchDomains}} while the server takes work (searchDomains: the search indexes still being loaded or built); " +
      "503 API0103 with {status: stopping} once it shuts down.",
  response: { data: v.object({ status: v.literal("ready"), building: v.object({ searchDomains: v.array(v.string()) }) }) }, errors: ["API0103"],
};
