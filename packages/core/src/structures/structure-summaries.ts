import { iconUri } from "../element/element-icon.ts";
import type { ReadScope } from "../elements/read-scope.ts";
import { translate } from "../i18n/label.ts";

/** A Smart Structure the principal may view, as a list of structures shows it. */
export interface StructureSummary {
  readonly name: string;
  /** In the principal's language. */
  readonly title: string;
  readonly icon: string;
  /** Its elements the principal may view: alive, and in the trash. */
  readonly alive: number;
  readonly deleted: number;
}

/** The structures the principal may view, by title, with how many of their elements are alive and in the trash. */
export async function listStructureSummaries(scope: ReadScope): Promise<StructureSummary[]> {
  const [alive, deleted] = await Promise.all([scope.repos.elements.countByStructure("alive"), scope.repos.elements.countByStructure("deleted")]);
  const viewable = scope.viewableStructures();
  return scope.definitions.structures()
    .filter((structure) => viewable === undefined || viewable.includes(structure.name))
    .map((structure) => ({
      name: structure.name,
      title: translate(structure.title ?? structure.name, scope.locale),
      icon: iconUri(structure),
      alive: alive[structure.name] ?? 0,
      deleted: deleted[structure.name] ?? 0,
    }))
    .sort((a, b) => a.title.localeCompare(b.title, scope.locale) || a.name.localeCompare(b.name));
}
