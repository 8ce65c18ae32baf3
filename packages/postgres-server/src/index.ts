export { startPostgresServer, type PostgresServer, type PostgresServerOptions } from "./start-postgres-server.ts";
export { testDatabases, type TestDatabases } from "./test-databases.ts";
