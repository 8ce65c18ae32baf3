import type { Platform, Principal } from "@lineage/core";
import type { HttpLimits } from "./http-limits.ts";

/** What every handler finds in the Hono context. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
    platform: Platform;
    /** This request's id, echoed in X-Request-Id and written in its log line. */
    requestId: string;
    limits: HttpLimits;
    /** Aborts when the request has run out of time (request-timeout.ts). */
    deadline: AbortSignal;
  };
}
