import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Lifecycle, SearchDomain } from "@lineage/core";
import { ConfigError } from "./load-config.ts";
import { importModule } from "./import-module.ts";

type NamedFunction = (...args: never[]) => unknown;

/**
 * The functions the modules of `hooks` or `searchCallables` export, by their export names (a
 * default export that is an object gives its functions too). Paths are relative to the
 * configuration file, or packages. A module that cannot load, exports no function, or a name two
 * modules export stops the start, naming the key.
 */
export async function namedFunctions(specifiers: readonly string[], dir: string, key: "hooks" | "searchCallables"): Promise<Record<string, NamedFunction>> {
  const found: Record<string, NamedFunction> = {};
  const from = new Map<string, string>();
  for (const specifier of specifiers) {
    const target = specifier.startsWith(".") || isAbsolute(specifier) ? pathToFileURL(resolve(dir, specifier)).href : specifier;
    let module: Record<string, unknown>;
    try {
      module = (await importModule(target)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(`${key}: cannot load "${specifier}": ${(error as Error).message}`);
    }
    const { default: fallback, ...named } = module;
    const entries = Object.entries({ ...(fallback && typeof fallback === "object" ? fallback : {}), ...named }).filter(
      (entry): entry is [string, NamedFunction] => typeof entry[1] === "function",
    );
    if (entries.length === 0) throw new ConfigError(`${key}: "${specifier}" exports no function`);
    for (const [name, fn] of entries) {
      const other = from.get(name);
      if (other !== undefined) throw new ConfigError(`${key}: "${name}" is exported by both "${other}" and "${specifier}"`);
      from.set(name, specifier);
      found[name] = fn;
    }
  }
  return found;
}

/**
 * What the bundles name and no module gives: each hook of a lifecycle's transitions that `hooks`
 * lacks, each callable of a search domain that `callables` lacks, as lines naming where it is used.
 */
export function missingFunctions(
  lifecycles: readonly Lifecycle[], domains: readonly SearchDomain[], hooks: Readonly<Record<string, unknown>>, callables: Readonly<Record<string, unknown>>,
): string[] {
  const missing: string[] = [];
  for (const lifecycle of lifecycles) {
    for (const transition of lifecycle.transitions) {
      for (const [phase, name] of Object.entries(transition.hooks ?? {})) {
        if (name && !(name in hooks)) missing.push(`hook "${name}" (${phase} of transition "${transition.id}" of lifecycle ${lifecycle.name})`);
      }
    }
  }
  for (const domain of domains) {
    for (const config of domain.configs) {
      for (const callable of config.callables) {
        if (!(callable.name in callables)) missing.push(`search callable "${callable.name}" (domain ${domain.name}, structure ${config.structure})`);
      }
    }
  }
  return missing;
}
