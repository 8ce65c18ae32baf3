export { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from "./open-postgres-store.ts";
export type { PostgresThrottleStore, PostgresThrottleStoreOptions } from "./throttle-store.ts";
