import type { CatalogRepository } from "../ports/catalog-repository.port.ts";
import type { MemoryContext } from "./memory-context.ts";
import { frozenCopy } from "./memory-tables.ts";

/** The memory store's definitions and dashboards; every write raises the definitions counter. */
export function createMemoryCatalogRepository({ tables, nextId, definitionsWritten }: MemoryContext): CatalogRepository {
  const byName = <T extends { readonly name: string }>(items: Iterable<T>) =>
    [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
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
    async enumerate(name) {
      return tables.enumerates.get(name);
    },
    async enumerates() {
      return byName(tables.enumerates.values());
    },
    async saveEnumerate(enumerate) {
      definitionsWritten();
      tables.enumerates.set(enumerate.name, frozenCopy(enumerate));
    },
    async lifecycle(name) {
      return tables.lifecycles.get(name);
    },
    async lifecycles() {
      return byName(tables.lifecycles.values());
    },
    async saveLifecycle(lifecycle) {
      definitionsWritten();
      tables.lifecycles.set(lifecycle.name, frozenCopy(lifecycle));
    },
    async profile(name) {
      return tables.profiles.get(name);
    },
    async profiles() {
      return byName(tables.profiles.values());
    },
    async saveProfile(profile) {
      definitionsWritten();
      tables.profiles.set(profile.name, frozenCopy(profile));
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
