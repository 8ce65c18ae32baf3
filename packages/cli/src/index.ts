export { main, type Io } from "./main.ts";
export { openLineage, startLineage, type LineageOptions, type RunningLineage } from "./start-lineage.ts";
export { readBundleFile, type BundleFile } from "./bundle-file.ts";
export { loadConfig, checkConfig, ConfigError, type LoadedConfig } from "./config/load-config.ts";
export { authOptionsOf, type AuthenticatorContext, type ProviderContext } from "./config/auth-options.ts";
export { LineageConfigSchema, type LineageConfig } from "./config/config-schema.ts";
export { DEFAULT_RETENTION_DAYS, keepEvents, PRUNE_EVERY_MS, type EventRetention, type EventRetentionOptions } from "./event-retention.ts";
