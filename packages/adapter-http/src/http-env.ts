import type { ChangeStamp, Deadline, Platform, Principal } from "@lineage/core";
import type { HttpLimits } from "./http-limits.ts";

/** What every handler finds in the Hono context. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
    platform: Platform;
    /** The change clock as this request saw it (one read per turn of the event loop): what its cached reads are checked against. */
    stamp: ChangeStamp;
    /** This request's id, echoed in X-Request-Id and written in its log line. */
    requestId: string;
    limits: HttpLimits;
    /** Aborted when the request has run out of time (request-timeout.ts); writes pass it to their transaction. */
    deadline: Deadline;
    /** The form token of the session a page was authenticated by (pageAuthentication); none for other credentials. */
    formToken: string | undefined;
  };
}
