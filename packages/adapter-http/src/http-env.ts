import type { Platform, Principal } from "@lineage/core";

/** What every handler finds in the Hono context. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
    platform: Platform;
  };
}
