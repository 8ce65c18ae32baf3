import type { Label } from "../i18n/label.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";

/** Weight of indexed text, A the highest (the original's tsvector weights). */
export type SearchWeight = "A" | "B" | "C" | "D";

export const SEARCH_WEIGHTS: readonly SearchWeight[] = ["A", "B", "C", "D"];

/**
 * Relevance multiplier of each weight: Postgres' default ts_rank weights
 * {D 0.1, C 0.2, B 0.4, A 1.0}, scaled so D is 1.
 */
export const WEIGHT_BOOSTS: Readonly<Record<SearchWeight, number>> = { A: 10, B: 4, C: 2, D: 1 };

/** A field (or file field) whose text is indexed with a weight. */
export interface WeightedField {
  readonly field: string;
  readonly weight: SearchWeight;
}

/** A callable registered in code, by name, whose text is indexed with a weight. */
export interface WeightedCallable {
  readonly name: string;
  readonly weight: SearchWeight;
}

/** What a domain indexes of one structure. */
export interface SearchConfig {
  readonly structure: string;
  /** A folder or saved search, by logical name: the domain indexes only the elements of the structure in it (domain-collections.ts). */
  readonly collection?: string;
  readonly fields: readonly WeightedField[];
  readonly files: readonly WeightedField[];
  readonly callables: readonly WeightedCallable[];
}

/** A full-text search domain, as a bundle declares it. */
export interface SearchDomain {
  readonly name: string;
  readonly label?: Label;
  /** Language of the content (`en`, `fr`): the locale display values are indexed in. */
  readonly lang: string;
  /** Stemming configuration: english, french or simple (none). */
  readonly stem: string;
  readonly configs: readonly SearchConfig[];
}

/** The configs of a domain for a structure (a structure may appear more than once). */
export function configsOf(domain: SearchDomain, structure: string): SearchConfig[] {
  return domain.configs.filter((config) => config.structure === structure);
}

/**
 * A domain whose configs cover the structures that extend theirs too, as a search domain of the
 * original covers its structures' descendants: a structure with no config of its own takes those
 * of its nearest ancestor that has some. The same domain when no structure takes any.
 */
export function withInheritedConfigs(
  domain: SearchDomain, definitions: { structures(): readonly Pick<SmartStructure, "name" | "ancestors">[] },
): SearchDomain {
  const own = new Set(domain.configs.map((config) => config.structure));
  const inherited: SearchConfig[] = [];
  for (const structure of definitions.structures()) {
    if (own.has(structure.name)) continue;
    const ancestor = structure.ancestors?.find((name) => own.has(name));
    if (ancestor !== undefined) inherited.push(...configsOf(domain, ancestor).map((config) => ({ ...config, structure: structure.name })));
  }
  return inherited.length === 0 ? domain : { ...domain, configs: [...domain.configs, ...inherited] };
}

/** Structures a domain indexes, without repeats. */
export function domainStructures(domain: SearchDomain): string[] {
  return [...new Set(domain.configs.map((config) => config.structure))];
}

/**
 * How element texts and terms are made (field forms, stop words): raised when that changes, so
 * snapshots made by an earlier version are rebuilt rather than searched with other terms.
 */
const TEXT_FORM = 3;

/** A text that changes whenever what the domain indexes changes: a snapshot made for another one is outdated. */
export function domainFingerprint(domain: SearchDomain): string {
  const { label: _label, ...indexed } = domain;
  return JSON.stringify({ ...indexed, textForm: TEXT_FORM });
}
