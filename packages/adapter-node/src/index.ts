export * from "./node-scrypt-password-hasher.ts";
export * from "./webhook-destinations.ts";
export * from "./webhook-sender.ts";
export * from "./webhook-worker.ts";
