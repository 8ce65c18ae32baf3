import type { ElementRepository } from "../ports/element-repository.port.ts";
import type { ElementRevision } from "./smart-element.ts";

/**
 * The latest revision of each lineage named by one of its revision ids (an initid is one), by the
 * id asked: undefined for an id no revision has. A fixed revision stands for its lineage, whose
 * latest revision is read.
 * @example
 * const latest = await latestRevisions(store.elements, [1042, 1043]);
 */
export async function latestRevisions(elements: ElementRepository, ids: readonly number[]): Promise<Map<number, ElementRevision | undefined>> {
  const byId = ids.length ? await elements.byIds(ids) : [];
  const fixed = byId.filter((revision) => revision.fixed);
  const latest = fixed.length ? await elements.latestMany([...new Set(fixed.map((r) => r.initid))]) : [];
  const latestOf = new Map(latest.map((revision) => [revision.initid, revision]));
  const found = new Map(byId.map((revision) => [revision.id, revision.fixed ? latestOf.get(revision.initid) : revision]));
  return new Map(ids.map((id) => [id, found.get(id)]));
}
