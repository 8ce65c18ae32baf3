export * from "./create-http-app.ts";
export * from "./serve.ts";
export * from "./envelope.ts";
export * from "./basic-authentication.ts";
export type { HttpEnv } from "./http-env.ts";
