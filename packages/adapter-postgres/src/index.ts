export { openPostgresStore, type PostgresStoreOptions } from "./open-postgres-store.ts";
