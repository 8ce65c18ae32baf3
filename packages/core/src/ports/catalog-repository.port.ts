import type { Enumerate } from "../enumerates/enumerate.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";
import type { SmartStructure, StructureDefinition } from "../structures/smart-structure.ts";
import type { DashboardCatalog } from "./dashboard-catalog.port.ts";

/** Definitions: structures, enumerates, lifecycles, profiles and field accesses; the dashboards registered by bundles. */
export interface CatalogRepository extends DashboardCatalog {
  structure(name: string): Promise<SmartStructure | undefined>;
  structureById(id: number): Promise<SmartStructure | undefined>;
  structures(): Promise<SmartStructure[]>;
  /** Creates or replaces a structure by name; keeps its id when it exists. */
  saveStructure(definition: StructureDefinition): Promise<SmartStructure>;
  enumerate(name: string): Promise<Enumerate | undefined>;
  enumerates(): Promise<Enumerate[]>;
  saveEnumerate(enumerate: Enumerate): Promise<void>;
  lifecycle(name: string): Promise<Lifecycle | undefined>;
  lifecycles(): Promise<Lifecycle[]>;
  saveLifecycle(lifecycle: Lifecycle): Promise<void>;
  profile(name: string): Promise<Profile | undefined>;
  profiles(): Promise<Profile[]>;
  saveProfile(profile: Profile): Promise<void>;
  fieldAccess(name: string): Promise<FieldAccess | undefined>;
  fieldAccesses(): Promise<FieldAccess[]>;
  /** Creates or replaces a field access by name. */
  saveFieldAccess(access: FieldAccess): Promise<void>;
}
