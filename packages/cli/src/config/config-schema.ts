import * as v from "valibot";
import { SupersetConnectionSchema } from "@lineage/adapter-superset";
import { isProxyAddress } from "@lineage/adapter-http";
import { LimitsConfigSchema } from "../serve-flags.ts";

const Id = v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "must be an identifier (letters, digits, _ and -)"));
const ClassPath = v.pipe(v.string(), v.minLength(1, "must name a module (a path relative to the configuration file, or a package)"));
const Seconds = v.pipe(v.number(), v.integer(), v.minValue(1));

/** `authentModeConfig.<id>`: a class for custom authenticators, and its options. */
const AuthenticatorConfigSchema = v.strictObject({
  class: v.optional(ClassPath),
  config: v.optional(v.record(v.string(), v.unknown())),
});

/** `authentProvidersConfig.<id>`: a class for custom providers, and free options beside it. */
const ProviderConfigSchema = v.looseObject({ class: v.optional(ClassPath) });

/** The CORE_SESSION_COOKIE object (api-v2.md, Session cookie). */
export const SessionCookieSchema = v.strictObject({
  samesite: v.optional(v.picklist(["strict", "lax", "none"])),
  httponly: v.optional(v.boolean()),
  hostonly: v.optional(v.boolean()),
  secure: v.optional(v.boolean()),
  path: v.optional(v.pipe(v.string(), v.startsWith("/", "must start with /"))),
});

/** `events`: the event log (docs/events.md). */
export const EventsConfigSchema = v.strictObject({
  /** Events older than this many days are pruned (fractions allowed). */
  retentionDays: v.optional(v.pipe(v.number(), v.finite(), v.gtValue(0, "must be a number of days above 0 (fractions allowed)"))),
});

/** `webhooks`: outgoing webhooks (docs/events.md). */
export const WebhooksConfigSchema = v.strictObject({
  /** Accept webhook URLs whose host is on a loopback, private or link-local network (false by default). */
  allowPrivateNetworks: v.optional(v.boolean()),
});

const BUILT_IN_MODES = ["html", "basic", "open"];

/**
 * The configuration file of `lineage serve --config` (bundle.md, docs/configuration.md).
 * Every key is optional; unknown keys are refused so a typo never goes unnoticed.
 */
export const LineageConfigSchema = v.pipe(
  v.strictObject({
    authentMode: v.optional(v.union([Id, v.function()], "must be html, basic, open, a configured authenticator id, or a function of the request")),
    authentModeConfig: v.optional(v.record(Id, AuthenticatorConfigSchema)),
    authentProvider: v.optional(v.pipe(
      v.string(),
      v.regex(/^\s*[A-Za-z][A-Za-z0-9_-]*(\s*,\s*[A-Za-z][A-Za-z0-9_-]*)*\s*$/, "must be provider ids separated by commas"),
    )),
    authentProvidersConfig: v.optional(v.record(Id, ProviderConfigSchema)),
    useIndexAsGuest: v.optional(v.boolean()),
    sessionCookie: v.optional(SessionCookieSchema),
    /** The reverse proxies whose forwarded client address is believed (docs/deployment.md). */
    trustedProxies: v.optional(v.array(v.pipe(v.string(), v.check(isProxyAddress, "must be an IP address or a CIDR range (e.g. 10.0.0.0/8)")))),
    forwardedHeader: v.optional(v.picklist(["x-forwarded-for", "forwarded"])),
    dashboards: v.optional(SupersetConnectionSchema),
    /** Request limits, shutdown and durability (docs/limits.md), named as the `lineage serve` flags. */
    limits: v.optional(LimitsConfigSchema),
    /** The event log: how long events are kept (docs/events.md). */
    events: v.optional(EventsConfigSchema),
    /** Modules whose exported functions are the lifecycle hooks (m0-m3) the bundles name, by export name. */
    hooks: v.optional(v.array(ClassPath)),
    /** Modules whose exported functions are the search callables the bundles' search domains name. */
    searchCallables: v.optional(v.array(ClassPath)),
    /** Outgoing webhooks: whether private networks may receive them (docs/events.md). */
    webhooks: v.optional(WebhooksConfigSchema),
  }),
  v.forward(
    v.check((config) => typeof config.authentMode !== "string" || BUILT_IN_MODES.includes(config.authentMode) || config.authentMode in (config.authentModeConfig ?? {}),
      (issue) => `"${String(issue.input.authentMode)}" is no authenticator: html, basic, open or a key of authentModeConfig`),
    ["authentMode"],
  ),
  v.forward(
    v.check((config) => Object.entries(config.authentModeConfig ?? {}).every(([id, entry]) => BUILT_IN_MODES.includes(id) || entry.class),
      "a custom authenticator needs a class"),
    ["authentModeConfig"],
  ),
  v.forward(
    v.check((config) => providerIds(config.authentProvider).every((id) => id === "internal" || id in (config.authentProvidersConfig ?? {})),
      (issue) => `names a provider that authentProvidersConfig does not configure (${providerIds(issue.input.authentProvider).join(", ")})`),
    ["authentProvider"],
  ),
  v.forward(
    v.check((config) => Object.entries(config.authentProvidersConfig ?? {}).every(([id, entry]) => id === "internal" || entry.class),
      "a custom provider needs a class"),
    ["authentProvidersConfig"],
  ),
);

export type LineageConfig = v.InferOutput<typeof LineageConfigSchema>;

/** The ids of `authentProvider`, in order; `internal` when not set. */
export function providerIds(list: string | undefined): string[] {
  return (list ?? "internal").split(",").map((id) => id.trim()).filter(Boolean);
}

/** Session lifetimes given in `authentModeConfig.html.config`. */
export const HtmlConfigSchema = v.strictObject({ idleSeconds: v.optional(Seconds), absoluteSeconds: v.optional(Seconds) });
/** The realm given in `authentModeConfig.basic.config`. */
export const BasicConfigSchema = v.strictObject({ realm: v.optional(v.pipe(v.string(), v.regex(/^[^"\\\r\n]{1,100}$/, "must be plain text without quotes"))) });
