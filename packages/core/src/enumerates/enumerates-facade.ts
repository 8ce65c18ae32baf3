import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { readEnumerate, type EnumerateData, type EnumerateQuery, type EnumerateTarget } from "./read-enumerate.ts";

/** Enumerates: the items of an enumerate or of an enum field. */
export interface EnumeratesFacade {
  /** GET /enumerates/<name>/ or a field's: the items, filtered and ordered, in the principal's locale. */
  read(principal: Principal, target: EnumerateTarget, query?: EnumerateQuery, stamp?: ChangeStamp): Promise<EnumerateData>;
}

/** The enumerates façade over a platform's context. */
export function createEnumeratesFacade(context: PlatformContext): EnumeratesFacade {
  return {
    read: async (principal, target, query, stamp) => readEnumerate(await context.scope(principal, stamp), target, query),
  };
}
