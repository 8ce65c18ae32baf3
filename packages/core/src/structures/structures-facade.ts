import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { Definitions } from "../scope/definitions.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { readStructure, type StructureReadOptions, type StructureReading } from "./read-structure.ts";
import { listStructureSummaries, type StructureSummary } from "./structure-summaries.ts";

/** Smart Structures and the definitions they come with. */
export interface StructuresFacade {
  /** GET /smart-structures/<name>: a structure's properties and fields as the principal sees them, with its ETag. */
  read(principal: Principal, name: string, options?: StructureReadOptions): Promise<StructureReading>;
  /** The structures the principal may view, with their counts of elements alive and in the trash. */
  list(principal: Principal, stamp?: ChangeStamp): Promise<StructureSummary[]>;
  /** Every definition (structures, enumerates, lifecycles, profiles, roles, groups) at the stamp given, or as now committed. */
  definitions(stamp?: ChangeStamp): Promise<Definitions>;
}

/** The structures façade over a platform's context. */
export function createStructuresFacade(context: PlatformContext): StructuresFacade {
  return {
    read: async (principal, name, options) => readStructure(await context.scope(principal, options?.stamp), name, options),
    list: async (principal, stamp) => listStructureSummaries(await context.scope(principal, stamp)),
    definitions: (stamp) => context.definitions(stamp),
  };
}
