import type { RequestScope } from "../scope/request-scope.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import { parseFilter, type ParsedFilter } from "./parse-filter.ts";
import type { FilterInput } from "./filter.schema.ts";

/** A list's `filter`: the query variable's JSON text, or the object embedded code gives. */
export type FilterOption = string | FilterInput;

/**
 * Parses a list's filter for the caller of `scope`, against the structures the list holds
 * (`family` and its descendants, or every structure), each as the caller sees it; undefined when
 * no filter was given.
 */
export async function listFilter(scope: RequestScope, raw: FilterOption | undefined, structures: readonly string[] | undefined): Promise<ParsedFilter | undefined> {
  if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) return undefined;
  const names = structures ?? scope.definitions.structures().map((structure) => structure.name);
  const seen = names.map((name) => scope.structure(name)).filter((structure): structure is SmartStructure => structure !== undefined);
  return parseFilter(raw, { structures: seen }, {
    principal: scope.principal,
    enumerate: (name) => scope.definitions.enumerate(name),
    accountId: async (login) => (await scope.repos.accounts.byLogin(login))?.id,
    initidOf: async (name) => (await scope.find(name))?.initid,
  });
}

/** Reads `count`: `1` or `true` (any case) asks for the total. */
export function wantsCount(raw: string | boolean | undefined): boolean {
  if (typeof raw === "boolean") return raw;
  const value = raw?.trim().toLowerCase();
  return value === "1" || value === "true";
}
