import type { Enumerate } from "../catalog/enumerate.ts";
import type { Lifecycle } from "../catalog/lifecycle.ts";
import type { Profile } from "../catalog/profile.ts";
import type { SmartStructure, StructureDefinition } from "../structure/smart-structure.ts";
import type { DashboardCatalog } from "./dashboard-catalog.port.ts";

/** Definitions: structures, enumerates, lifecycles and profiles; the dashboards registered by bundles. */
export interface CatalogRepository extends DashboardCatalog {
  structure(name: string): SmartStructure | undefined;
  structureById(id: number): SmartStructure | undefined;
  structures(): SmartStructure[];
  /** Creates or replaces a structure by name; keeps its id when it exists. */
  saveStructure(definition: StructureDefinition): SmartStructure;
  enumerate(name: string): Enumerate | undefined;
  saveEnumerate(enumerate: Enumerate): void;
  lifecycle(name: string): Lifecycle | undefined;
  saveLifecycle(lifecycle: Lifecycle): void;
  profile(name: string): Profile | undefined;
  saveProfile(profile: Profile): void;
}
