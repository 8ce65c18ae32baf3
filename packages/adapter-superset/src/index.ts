export { createSupersetServer, type SupersetServerOptions } from "./superset-server.ts";
export { SupersetConnectionSchema, type SupersetConnection } from "./superset-connection.ts";
export { naiveUtc, toServerDashboard, type SupersetDashboard } from "./superset-dashboard.ts";
