import type { Context } from "hono";
import type { Logger } from "pino";
import { headerOf } from "../request-header.ts";

/**
 * Once per process, when an attempt is throttled while no proxy is trusted but the request came
 * with a forwarded address: every client behind that proxy then shares one address, and one
 * client's failures lock them all out. Read only for throttled attempts, never on the hot path.
 */
export function untrustedProxyHint(trustedProxies: readonly string[] | undefined, logger?: Logger): (c: Context) => void {
  let told = Boolean(trustedProxies?.length);
  return (c) => {
    if (told || !(headerOf(c, "x-forwarded-for") || headerOf(c, "forwarded"))) return;
    told = true;
    const message = "a throttled request came through a proxy (it sent X-Forwarded-For or Forwarded) but trustedProxies is not set: "
      + "every client behind it counts as the proxy's address (docs/deployment.md, Behind a reverse proxy)";
    if (logger) logger.warn({ reason: "untrusted-proxy" }, message);
    else console.warn(`Lineage: ${message}`);
  };
}
