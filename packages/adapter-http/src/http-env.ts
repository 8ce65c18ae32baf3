import type { Platform, Principal, RequestVersion } from "@lineage/core";
import type { HttpLimits } from "./http-limits.ts";
import type { Deadline } from "./request-timeout.ts";

/** What every handler finds in the Hono context. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
    platform: Platform;
    /** The store's version as this request sees it (read once, at first use): what its cached reads are checked against. */
    storeVersion: RequestVersion;
    /** This request's id, echoed in X-Request-Id and written in its log line. */
    requestId: string;
    limits: HttpLimits;
    /** Expires when the request has run out of time (request-timeout.ts). */
    deadline: Deadline;
  };
}
