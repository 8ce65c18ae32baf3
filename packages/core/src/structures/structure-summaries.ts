import { iconUri } from "../elements/element-icon.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { translate } from "../i18n/label.ts";

/** A Smart Structure the principal may view, as a list of structures shows it. */
export interface StructureSummary {
  readonly name: string;
  readonly id: number;
  /** The structure it extends, by name; null when it extends none. */
  readonly parent: string | null;
  /** In the principal's language. */
  readonly title: string;
  readonly icon: string;
  /** Its elements the principal may view: alive, and in the trash. */
  readonly alive: number;
  readonly deleted: number;
}

/** The structures the principal may view, by title, with how many of their elements are alive and in the trash. */
export async function listStructureSummaries(scope: RequestScope): Promise<StructureSummary[]> {
  const readable = scope.readable();
  const [alive, deleted] = await Promise.all([
    scope.repos.elements.countByStructure("alive", readable), scope.repos.elements.countByStructure("deleted", readable),
  ]);
  // A structure is listed when its profile lets the principal view its elements, or when one of them is viewable under its own.
  // As the owner too: the principal may view (and make) elements of their own.
  const listed = (name: string) => readable === undefined || readable.structures.includes(name) || readable.owned?.structures.includes(name) === true
    || (alive[name] ?? 0) + (deleted[name] ?? 0) > 0;
  return scope.definitions.structures()
    .filter((structure) => listed(structure.name))
    .map((structure) => ({
      name: structure.name,
      id: structure.id,
      parent: structure.extends ?? null,
      title: translate(structure.title ?? structure.name, scope.locale),
      icon: iconUri(structure),
      alive: alive[structure.name] ?? 0,
      deleted: deleted[structure.name] ?? 0,
    }))
    .sort((a, b) => a.title.localeCompare(b.title, scope.locale) || a.name.localeCompare(b.name));
}
