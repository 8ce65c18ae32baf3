import { readFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { LineageConfigSchema, type LineageConfig } from "./config-schema.ts";
import { importModule } from "./import-module.ts";

/** A configuration the server cannot start with; the message names the file and the key. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** A checked configuration, and the folder its relative module paths start from. */
export interface LoadedConfig {
  readonly file: string;
  readonly dir: string;
  readonly config: LineageConfig;
}

/** Reads a JSON file, or a JavaScript (or TypeScript) module whose default export is the configuration. */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  let raw: unknown;
  if (extname(file).toLowerCase() === ".json") {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(`cannot read the configuration ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`the configuration ${path} is not valid JSON: ${(error as Error).message}`);
    }
  } else {
    try {
      raw = ((await importModule(pathToFileURL(file).href)) as { default?: unknown }).default;
    } catch (error) {
      throw new ConfigError(`cannot load the configuration module ${path}: ${(error as Error).message}`);
    }
    if (raw === undefined) throw new ConfigError(`the configuration module ${path} has no default export`);
  }
  return { file, dir: dirname(file), config: checkConfig(raw, path) };
}

/** Validates a configuration object; the error lists every wrong key by its path. */
export function checkConfig(raw: unknown, source = "configuration"): LineageConfig {
  const result = v.safeParse(LineageConfigSchema, raw);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const key = v.getDotPath(issue) ?? unknownKey(issue);
    return key ? `${key}: ${issue.message}` : issue.message;
  });
  throw new ConfigError(`invalid configuration ${source}:\n  ${problems.join("\n  ")}`);
}

/** strictObject reports an unknown key with the key itself as input. */
function unknownKey(issue: v.BaseIssue<unknown>): string | undefined {
  return issue.type === "strict_object" && issue.path?.length ? issue.path.map((item) => String(item.key)).join(".") : undefined;
}
