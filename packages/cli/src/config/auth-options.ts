import type { HttpAuthOptions } from "@lineage/adapter-http";
import { type AuthenticationService, type Authenticator, type CredentialProvider, type Platform } from "@lineage/core";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { BasicConfigSchema, HtmlConfigSchema, providerIds } from "./config-schema.ts";
import { ConfigError, type LoadedConfig } from "./load-config.ts";
import { importModule } from "./import-module.ts";

/** What a custom authenticator class is constructed with, after its `config` options. */
export interface AuthenticatorContext {
  readonly id: string;
  /** Providers, throttle, sessions and tokens of the platform. */
  readonly service: AuthenticationService;
  readonly platform: Platform;
  /** The configuration file's folder: relative paths in options start there. */
  readonly configDir: string;
}

/** What a custom provider class is constructed with, after its options. */
export interface ProviderContext {
  readonly id: string;
  readonly platform: Platform;
  readonly configDir: string;
}

type Constructor = new (options: Record<string, unknown>, context: never) => unknown;

/** Imports a module named by `class` (relative to the configuration file, or a package); its default export is the class. */
async function importClass(specifier: string, dir: string, key: string): Promise<Constructor> {
  const target = specifier.startsWith(".") || isAbsolute(specifier) ? pathToFileURL(resolve(dir, specifier)).href : specifier;
  let module: { default?: unknown };
  try {
    module = (await importModule(target)) as { default?: unknown };
  } catch (error) {
    throw new ConfigError(`${key}: cannot load "${specifier}": ${(error as Error).message}`);
  }
  if (typeof module.default !== "function") throw new ConfigError(`${key}: "${specifier}" has no default export class`);
  return module.default as Constructor;
}

function requireMethods<T>(instance: unknown, methods: readonly string[], key: string): T {
  const missing = methods.filter((m) => typeof (instance as Record<string, unknown> | null)?.[m] !== "function");
  if (missing.length) throw new ConfigError(`${key}: the class has no ${missing.join(", ")} method`);
  return instance as T;
}

function parseOptions<S extends v.GenericSchema>(schema: S, value: unknown, key: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value ?? {});
  if (result.success) return result.output;
  const issue = result.issues[0];
  throw new ConfigError(`invalid configuration: ${key}${v.getDotPath(issue) ? `.${v.getDotPath(issue)}` : ""}: ${issue.message}`);
}

/**
 * The HTTP app's authentication options from a configuration: built-in
 * authenticators' options, custom classes loaded (and checked) now, built
 * when the app starts, with the platform and the authentication service.
 */
export async function authOptionsOf({ config, dir }: LoadedConfig): Promise<HttpAuthOptions> {
  const modes = config.authentModeConfig ?? {};
  const html = parseOptions(HtmlConfigSchema, modes.html?.config, "authentModeConfig.html.config");
  const basic = parseOptions(BasicConfigSchema, modes.basic?.config, "authentModeConfig.basic.config");

  const authenticators: Record<string, (service: AuthenticationService, platform: Platform) => Authenticator> = {};
  for (const [id, entry] of Object.entries(modes)) {
    if (!entry.class) continue;
    const key = `authentModeConfig.${id}.class`;
    const Class = await importClass(entry.class, dir, key);
    authenticators[id] = (service, platform) => {
      const context: AuthenticatorContext = { id, service, platform, configDir: dir };
      const instance = requireMethods<Authenticator>(new Class(entry.config ?? {}, context as never), ["checkAuthentication", "askAuthentication", "checkAuthorization"], key);
      return withId(instance, id);
    };
  }

  const providers: Array<(platform: Platform) => CredentialProvider> = [];
  for (const id of providerIds(config.authentProvider)) {
    const { class: specifier, ...options } = config.authentProvidersConfig?.[id] ?? {};
    if (!specifier) {
      // The internal provider: the adapter's default, by this position in the chain.
      providers.push((platform) => platform.auth.internalProvider(id));
      continue;
    }
    const key = `authentProvidersConfig.${id}.class`;
    const Class = await importClass(specifier, dir, key);
    providers.push((platform) => {
      const context: ProviderContext = { id, platform, configDir: dir };
      const instance = requireMethods<CredentialProvider>(new Class(options, context as never), ["validateCredential"], key);
      return withId(instance, id);
    });
  }

  const sessionPolicy = {
    ...(html.idleSeconds ? { idleSeconds: html.idleSeconds } : {}),
    ...(html.absoluteSeconds ? { absoluteSeconds: html.absoluteSeconds } : {}),
  };
  return {
    ...(config.authentMode ? { mode: config.authentMode as NonNullable<HttpAuthOptions["mode"]> } : {}),
    authenticators,
    providers,
    ...(config.sessionCookie ? { sessionCookie: config.sessionCookie } : {}),
    ...(config.useIndexAsGuest !== undefined ? { useIndexAsGuest: config.useIndexAsGuest } : {}),
    ...(Object.keys(sessionPolicy).length ? { sessionPolicy } : {}),
    ...(basic.realm ? { realm: basic.realm } : {}),
    ...(config.trustedProxies ? { trustedProxies: config.trustedProxies } : {}),
    ...(config.forwardedHeader ? { forwardedHeader: config.forwardedHeader } : {}),
  };
}

/** The config key is the id, unless the class names itself. */
function withId<T extends object>(instance: T, id: string): T {
  if (!("id" in instance) || (instance as { id?: unknown }).id === undefined) Object.defineProperty(instance, "id", { value: id, enumerable: true });
  return instance;
}
