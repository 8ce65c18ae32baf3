import { LineageError } from "@lineage/core";
import type { Context, Hono, Next } from "hono";
import { methodOverride } from "hono/method-override";
import type { HttpEnv } from "./http-env.ts";
import { headerOf } from "./request-header.ts";

const OVERRIDE_HEADER = "X-HTTP-Method-Override";
/** api-v2.md, General conventions: a POST may be handled as a PUT or a DELETE, and as nothing else. */
const OVERRIDABLE = new Set(["PUT", "DELETE"]);

/** The method a POST asks to be handled as, upper-cased; undefined for any other request. */
function askedMethod(c: Context): string | undefined {
  // The method first: only a POST may be overridden, and reading its header costs the others nothing.
  if (c.req.method !== "POST") return undefined;
  return headerOf(c, OVERRIDE_HEADER)?.trim().toUpperCase() || undefined;
}

/** The refusal (400 API0008) of a POST asking to be handled as anything but PUT or DELETE. */
export function refusedOverride(c: Context): LineageError | undefined {
  const asked = askedMethod(c);
  return asked === undefined || OVERRIDABLE.has(asked) ? undefined : new LineageError("API0008", [asked, "POST"]);
}

/**
 * `X-HTTP-Method-Override: PUT|DELETE` on a POST: Hono's method-override sends the request through
 * `app` again as that method (so it is routed, identified and logged once, as a PUT or a DELETE).
 * Returns that answer, or undefined when the request is not to be overridden.
 */
export function overriddenMethod(app: Hono<HttpEnv>): (c: Context<HttpEnv>, next: Next) => Promise<Response | void> | undefined {
  const dispatchAgain = methodOverride({ app, header: OVERRIDE_HEADER });
  return (c, next) => {
    const asked = askedMethod(c);
    return asked !== undefined && OVERRIDABLE.has(asked) ? dispatchAgain(c, next) : undefined;
  };
}
