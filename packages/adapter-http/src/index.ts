export * from "./create-http-app.ts";
export * from "./serve.ts";
export * from "./envelope.ts";
export * from "./authentication/index.ts";
export type { HttpEnv } from "./http-env.ts";
export * from "./http-limits.ts";
export { createReadiness, type Readiness } from "./health.ts";
export { createRequestLogger, redactedPath, type Logger, type RequestLoggerOptions } from "./request-log.ts";
export { REQUEST_ID_HEADER } from "./request-id.ts";
