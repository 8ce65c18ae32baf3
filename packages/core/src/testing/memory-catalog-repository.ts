import type { CatalogRepository } from "../ports/catalog-repository.port.ts";
import { namedCatalog, type NamedDefinitions } from "../storage/named-definitions.ts";
import type { MemoryContext } from "./memory-context.ts";
import { frozenCopy, type Table } from "./memory-tables.ts";

/** The memory store's definitions and dashboards; every write raises the definitions counter. */
export function createMemoryCatalogRepository({ tables, nextId, definitionsWritten }: MemoryContext): CatalogRepository {
  /** Look-up, list by name and save of definitions kept by name (enumerates, lifecycles, profiles, field accesses). */
  const named = <T extends { readonly name: string }>(table: Table<string, T>): NamedDefinitions<T> => ({
    get: async (name: string) => table.get(name),
    all: async () => [...table.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    save: async (definition: T) => {
      definitionsWritten();
      table.set(definition.name, frozenCopy(definition));
    },
  });
  return {
    ...namedCatalog({
      enumerates: named(tables.enumerates), lifecycles: named(tables.lifecycles), profiles: named(tables.profiles),
      fieldAccesses: named(tables.fieldAccesses),
    }),
    async structure(name) {
      return tables.structures.get(name);
    },
    async structureById(id) {
      return [...tables.structures.values()].find((s) => s.id === id);
    },
    async structures() {
      return [...tables.structures.values()].sort((a, b) => a.id - b.id);
    },
    async saveStructure(definition) {
      definitionsWritten();
      const { id: _carried, ...stored } = definition as typeof definition & { id?: unknown };
      const id = tables.structures.get(stored.name)?.id ?? nextId("structure");
      const structure = frozenCopy({ ...stored, id });
      tables.structures.set(stored.name, structure);
      return structure;
    },
    async dashboard(slug) {
      return tables.dashboards.get(slug);
    },
    async dashboards() {
      return [...tables.dashboards.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    },
    async saveDashboard(entry) {
      definitionsWritten();
      tables.dashboards.set(entry.slug, frozenCopy({ slug: entry.slug, uuid: entry.uuid, roles: entry.roles }));
    },
  };
}
